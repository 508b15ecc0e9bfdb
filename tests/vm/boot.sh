#!/bin/bash
# The guest's job (installed as /usr/local/sbin/judge-vm-boot by build.sh and
# run by judge-vm.service at the end of the boot): mounts the host's shares,
# runs tests/vm/guest.sh from the repository with the job's settings, and
# leaves its exit status for the host. The unit powers the VM off after it.
set -u
mkdir -p /vm-out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /vm-out || exit 1
# shellcheck disable=SC1091
. /vm-out/job.env   # REPO, SUITE, and whatever else the host passes on
mkdir -p "$REPO"
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 repo "$REPO" || exit 1
# The tests write beside their binary (target/tmp): a tmpfs of the guest's.
mount -t tmpfs -o mode=1777 tmpfs "$REPO/target/tmp" 2>/dev/null \
  || mount -t tmpfs -o mode=1777 tmpfs "$REPO/target" || exit 1
bash "$REPO/tests/vm/guest.sh" "$SUITE" >/vm-out/guest.log 2>&1
echo $? >/vm-out/status
sync
