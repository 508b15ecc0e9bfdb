#!/bin/sh
# Runs a command as a container engine on a cgroup-v2 host starts its main
# process (Docker's and Podman's default there): in a cgroup namespace whose
# root is the container's cgroup, with cgroup2 mounted afresh at
# /sys/fs/cgroup (so /proc/self/cgroup says "0::/" and the cgroup looks like
# the root without being it), and with no way to the host's systemd.
#   in-container.sh COMMAND...   (as root, started in a cgroup of its own)
# JUDGE_CONTAINER chooses the shape (default: main, the command is the
# container's main process):
#   shell     the command started by a shell that stays (`docker run IMAGE sh
#             -c "judge ..."`, GitLab's docker executor, a pod's command)
#   dind      the same after docker:dind's entrypoint (every process moved
#             into /init, the controllers enabled at the namespace's root)
#   run       a shell parent, and the host's /run visible (systemd's socket)
#   readonly  a shell parent, cgroup2 mounted read-only (an unprivileged pod)
#   nosystemd no container: the host's cgroups, a shell parent, and no
#             systemd to ask (OpenRC, runit, a minimal VM)
shape=${JUDGE_CONTAINER:-main}
if [ "$shape" = nosystemd ]; then
  exec unshare --mount --propagation private -- sh -c '
    mount -t tmpfs none /run/systemd && mount -t tmpfs none /run/dbus &&
    "$@"' no-systemd "$@"
fi
exec unshare --cgroup --mount --propagation private -- sh -c '
  shape=$1; shift
  umount -l /sys/fs/cgroup || exit 1
  if [ "$shape" = readonly ]; then
    mount -t cgroup2 -o ro cgroup2 /sys/fs/cgroup || exit 1
  else
    mount -t cgroup2 cgroup2 /sys/fs/cgroup || exit 1
  fi
  if [ "$shape" != run ]; then
    mount -t tmpfs none /run/systemd && mount -t tmpfs none /run/dbus || exit 1
  fi
  if [ "$shape" = dind ]; then
    mkdir -p /sys/fs/cgroup/init &&
      xargs -rn1 < /sys/fs/cgroup/cgroup.procs > /sys/fs/cgroup/init/cgroup.procs 2>/dev/null
    sed -e "s/ / +/g" -e "s/^/+/" < /sys/fs/cgroup/cgroup.controllers \
      > /sys/fs/cgroup/cgroup.subtree_control || exit 1
  fi
  [ "$shape" = main ] && exec "$@"
  # A shell that stays beside the command, and one more process.
  sleep 100000 & other=$!
  "$@"; rc=$?
  kill $other
  # Nothing of the judge left in the container: no judge-PID, and the
  # processes of the container back where they were (dind made its /init itself).
  left=$(ls -d /sys/fs/cgroup/judge-* 2>/dev/null)
  if [ "$shape" != dind ] && [ -d /sys/fs/cgroup/init ]; then left="$left /sys/fs/cgroup/init"; fi
  [ -n "$left" ] && echo "in-container: left behind in the container: $left" >&2
  exit $rc' in-container "$shape" "$@"
