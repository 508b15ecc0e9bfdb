#!/usr/bin/env bash
# The judge in a real container runtime: Debian's podman added to a copy of
# the image build.sh made (target/vm-podman; rebuilt when target/vm's stamp
# changes), then the placement test of a real podman container run in the
# VM as root:
#   sudo bash tests/vm/podman.sh [6.1|6.12]     (default 6.1)
# Not part of .ci/run: the copy and podman's install take a few minutes and
# the mirror; the container shapes CI runs are in-container.sh's. Needs what
# build.sh needs, and `cargo test --no-run` done.
set -euo pipefail
cd "$(dirname "$0")/../.."
kernel=${1:-6.1}
src=target/vm
dst=target/vm-podman
[ -f "$src/stamp" ] || bash tests/vm/build.sh
if [ ! -f "$dst/stamp" ] || ! cmp -s "$src/stamp" "$dst/stamp"; then
  mirror="${JUDGE_VM_MIRROR:-}"
  if [ -z "$mirror" ]; then
    mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
      | awk '$2 == "bookworm" { print $1; exit }')
  fi
  [ -n "$mirror" ] || { echo "vm: no bookworm mirror in apt's sources; set JUDGE_VM_MIRROR" >&2; exit 1; }
  started=$(date +%s)
  rm -rf "$dst"
  mkdir -p "$dst"
  cp "$src"/vmlinuz-* "$src"/initrd.img-* "$dst/"
  cp --sparse=always "$src/rootfs.img" "$dst/rootfs.img"
  root=$(mktemp -d)
  mount -o loop "$dst/rootfs.img" "$root"
  trap 'umount "$root/proc" 2>/dev/null || true; umount "$root"; rmdir "$root"' EXIT
  mount --bind /proc "$root/proc"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  echo "deb ${mirror%/} bookworm main" >"$root/etc/apt/sources.list"
  in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
  in_root apt-get update -qq >"$dst/install.log" 2>&1
  in_root apt-get install -y -qq podman >>"$dst/install.log" 2>&1 \
    || { tail -30 "$dst/install.log"; exit 1; }
  in_root podman --version
  in_root apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root/etc/resolv.conf"
  umount "$root/proc"
  umount "$root"
  rmdir "$root"
  trap - EXIT
  cp "$src/stamp" "$dst/stamp"
  echo "vm: podman added in $(($(date +%s) - started)) s"
fi
JUDGE_VM_DIR="$PWD/$dst" bash tests/vm/run.sh "$kernel" only \
  'placement::a_real_podman_container_gets_its_level_and_exact_memory --nocapture'
