#!/usr/bin/env bash
# Builds the cgroup-v2 test VM (see tests/vm/README.md): a Debian bookworm
# root file system made by debootstrap (systemd, dbus, sudo, gcc, g++,
# python3, rustc-web), an ext4 image of it, and two kernels with their
# initramfs: bookworm's 6.1 and bookworm-backports' 6.12. Everything goes to
# $JUDGE_VM_DIR (default target/vm) and is reused while this script and the
# package list are unchanged (a stamp holds their hash). Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${JUDGE_VM_DIR:-$PWD/target/vm}"
mkdir -p "$out"

# What the guest holds. Compilers: those of the languages the VM's tests
# judge (C, C++, Python, Rust: rustc-web, as bookworm's rustc 1.63 cannot
# build the packages' programs).
packages=(systemd systemd-sysv dbus libpam-systemd sudo procps kmod udev
  util-linux gcc g++ libc6-dev python3 rustc-web zstd)
stamp=$( (cat "$0" tests/vm/boot.sh; echo "${packages[*]}") | sha256sum | cut -c1-16)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] \
  && [ -s "$out/rootfs.img" ] && ls "$out"/vmlinuz-6.1* "$out"/vmlinuz-6.12* >/dev/null 2>&1; then
  echo "vm: reusing $out (stamp $stamp)"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "vm: building the root file system needs root" >&2; exit 1; }
command -v debootstrap >/dev/null && command -v mkfs.ext4 >/dev/null \
  || { echo "vm: needs debootstrap and e2fsprogs (apt-get install debootstrap)" >&2; exit 1; }

# The Debian mirror this machine's apt uses (no host is named here).
mirror="${JUDGE_VM_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
    | awk '$2 == "bookworm" { print $1; exit }')
fi
[ -n "$mirror" ] || { echo "vm: no bookworm mirror in apt's sources; set JUDGE_VM_MIRROR" >&2; exit 1; }
mirror="${mirror%/}"

started=$(date +%s)
root="$out/root"
rm -rf "$root" "$out/stamp"
echo "vm: debootstrap bookworm from $mirror into $root"
list=$(IFS=,; echo "${packages[*]}")
debootstrap --variant=minbase --include="$list" bookworm "$root" "$mirror/" >"$out/debootstrap.log" 2>&1 \
  || { tail -30 "$out/debootstrap.log"; exit 1; }
echo "vm: debootstrap done in $(($(date +%s) - started)) s"

# Small initramfs: only what mounts the root (virtio disk, ext4).
mkdir -p "$root/etc/initramfs-tools/conf.d"
echo "MODULES=list" >"$root/etc/initramfs-tools/conf.d/judge-vm"
printf '%s\n' virtio_pci virtio_blk ext4 >>"$root/etc/initramfs-tools/modules"

# Kernels: 6.1 (bookworm) and 6.12 (bookworm-backports, listed only for this).
mount --bind /proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
echo "deb $mirror bookworm-backports main" >"$root/etc/apt/sources.list.d/backports.list"
in_root apt-get update -qq >>"$out/debootstrap.log" 2>&1
in_root apt-get install -y -qq --no-install-recommends linux-image-amd64 >>"$out/debootstrap.log" 2>&1
in_root apt-get install -y -qq --no-install-recommends -t bookworm-backports linux-image-amd64 \
  >>"$out/debootstrap.log" 2>&1
rm -f "$root/etc/apt/sources.list.d/backports.list"
in_root apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root/etc/resolv.conf"
umount "$root/proc"
trap - EXIT
echo "vm: kernels installed at $(($(date +%s) - started)) s"

# rustc-web lives in its own directory: put it on the PATH the sandbox uses.
rustc=$(find "$root/usr/lib" -path '*rust-web*/bin/rustc' -type f | head -1)
if [ -n "$rustc" ] && [ ! -e "$root/usr/bin/rustc" ]; then
  ln -s "${rustc#"$root"}" "$root/usr/local/bin/rustc"
fi

# The guest: no network, a test user with a user manager (linger) and sudo,
# a second user without one, and one service that runs the job and powers off.
echo judge-vm >"$root/etc/hostname"
echo "/dev/vda / ext4 rw,relatime 0 0" >"$root/etc/fstab"
chroot "$root" useradd --create-home --uid 1001 --shell /bin/bash judgeci
chroot "$root" useradd --create-home --uid 1002 --shell /bin/bash judgealone
mkdir -p "$root/var/lib/systemd/linger"
touch "$root/var/lib/systemd/linger/judgeci"
echo "judgeci ALL=(ALL) NOPASSWD: ALL" >"$root/etc/sudoers.d/judgeci"
chmod 440 "$root/etc/sudoers.d/judgeci"
install -m 755 tests/vm/boot.sh "$root/usr/local/sbin/judge-vm-boot"
cat >"$root/etc/systemd/system/judge-vm.service" <<'UNIT'
[Unit]
Description=judge: the VM's test job
After=multi-user.target user@1001.service
Wants=user@1001.service
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/judge-vm-boot
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
chroot "$root" systemctl enable judge-vm.service >/dev/null 2>&1
for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
  dpkg-db-backup.timer systemd-tmpfiles-clean.timer serial-getty@ttyS0.service \
  getty@tty1.service e2scrub_reap.service; do
  ln -sf /dev/null "$root/etc/systemd/system/$unit"
done

# Kernels and initramfs beside the image (qemu boots them directly).
for k in "$root"/boot/vmlinuz-*; do
  v=${k##*/vmlinuz-}
  cp "$k" "$out/vmlinuz-$v"
  cp "$root/boot/initrd.img-$v" "$out/initrd.img-$v"
done
rm -f "$out/rootfs.img"
mkfs.ext4 -q -F -L judgevm -d "$root" "$out/rootfs.img" 6G
rm -rf "$root"
echo "$stamp" >"$out/stamp"
ls -la "$out"
echo "vm: built in $(($(date +%s) - started)) s"
