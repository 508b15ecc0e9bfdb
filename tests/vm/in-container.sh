#!/bin/sh
# Runs a command as a container engine on a cgroup-v2 host starts its main
# process (Docker's and Podman's default there): in a cgroup namespace whose
# root is the container's cgroup, with cgroup2 mounted afresh at
# /sys/fs/cgroup (so /proc/self/cgroup says "0::/" and the cgroup looks like
# the root without being it), and with no way to the host's systemd.
#   in-container.sh COMMAND...   (as root, started in a cgroup of its own)
exec unshare --cgroup --mount --propagation private -- sh -c '
  umount -l /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup &&
  mount -t tmpfs none /run/systemd &&
  mount -t tmpfs none /run/dbus &&
  exec "$@"' in-container "$@"
