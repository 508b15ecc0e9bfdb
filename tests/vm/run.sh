#!/usr/bin/env bash
# Boots the test VM (tests/vm/build.sh) with a kernel and runs a suite in it:
#   tests/vm/run.sh 6.1|6.12 smoke|full
#   tests/vm/run.sh 6.1|6.12 only 'FILTER...'   (the test binary with these filters, as root)
# The VM is stopped after JUDGE_VM_TIMEOUT seconds, or else JUDGE_VM_BUDGET
# (default 3000) seconds grown by the slowdown below over 5 (the budget is
# what the suite may take on a quiet host).
# A passing `6.1 full` writes tests/vm/full-proved (what tests/vm/ci.sh
# compares with tests/vm/fingerprint.sh) for the developer to commit.
# The repository is shared read-only at its own path (so the test binary's
# built-in paths hold), results come back through a second share. The guest
# has no network. Prints the guest's log; exits with the guest's status.
set -euo pipefail
cd "$(dirname "$0")/../.."
want=$1 suite=$2 filter=${3:-}
vm="${JUDGE_VM_DIR:-$PWD/target/vm}"
kernel=$(ls "$vm"/vmlinuz-"$want"[.+-]* 2>/dev/null | head -1)
[ -n "$kernel" ] || { echo "vm: no kernel $want in $vm (run tests/vm/build.sh)" >&2; exit 2; }
initrd="$vm/initrd.img-${kernel##*/vmlinuz-}"
# The test binary and the judge, as cargo built them for `cargo test`.
cli="${JUDGE_VM_CLI:-$(cargo test --locked --no-run --test cli --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "cli" and m.get("executable"):
        print(m["executable"])')}"
[ -x "$cli" ] || { echo "vm: no test binary (cargo test --no-run)" >&2; exit 2; }
# Under emulation the guest's clock is the host's, and a vCPU the host keeps
# waiting is still running for the guest (TCG has no steal time): a run's CPU
# time there grows with the host's load. The slowdown (limits that decide TLE,
# the tests' deadlines) is 5 on a quiet host, as in CI where the VM runs alone,
# and grows with the host's load at boot (up to 20, the largest time_factor).
# The load is sampled over three seconds (runnable tasks in /proc/stat, less
# the sampler), not the load average: that stays high for minutes after a
# burst (the host's own hostile suite, just before this in .ci/run).
if [ -z "${JUDGE_TEST_SLOWDOWN:-}" ]; then
  load=$(for _ in $(seq 30); do grep '^procs_running' /proc/stat; sleep 0.1; done \
    | awk '{ n += $2 - 1 } END { print (n > 0 ? n / NR : 0) }')
  JUDGE_TEST_SLOWDOWN=$(awk -v load="$load" -v cpus="$(nproc)" \
    'BEGIN { s = int(5 * load / cpus + 0.999); print (s < 5 ? 5 : (s > 20 ? 20 : s)) }')
fi
timeout=${JUDGE_VM_TIMEOUT:-$((${JUDGE_VM_BUDGET:-3000} * JUDGE_TEST_SLOWDOWN / 5))}
fingerprint=$(bash tests/vm/fingerprint.sh)
out="$vm/out-$want-${suite//,/+}"
rm -rf "$out"
mkdir -p "$out"
cat >"$out/job.env" <<JOB
REPO=$PWD
CLI=$cli
SUITE=$suite
FILTER="$filter"
JUDGE_TEST_SLOWDOWN=$JUDGE_TEST_SLOWDOWN
JOB
started=$(date +%s)
echo "vm: booting ${kernel##*/} for the $suite suite (software emulation, 2 CPUs," \
  "slowdown $JUDGE_TEST_SLOWDOWN, stopped after $timeout s)"
status=0
timeout "$timeout" qemu-system-x86_64 \
  -machine q35,accel=tcg -cpu max -smp 2 -m 4096 \
  -kernel "$kernel" -initrd "$initrd" \
  -append "root=/dev/vda rw console=ttyS0 quiet panic=-1 no_timer_check systemd.show_status=0" \
  -drive "file=$vm/rootfs.img,if=virtio,format=raw,snapshot=on" \
  -virtfs "local,path=$PWD,mount_tag=repo,security_model=none,readonly=on" \
  -virtfs "local,path=$out,mount_tag=out,security_model=none" \
  -nic none -display none -serial "file:$out/console.log" -no-reboot || status=$?
ran=$(($(date +%s) - started))
echo "vm: the VM ran $ran s (qemu exit $status)"
if [ -f "$out/guest.log" ]; then cat "$out/guest.log"; else tail -50 "$out/console.log"; fi
[ -f "$out/status" ] || { echo "vm: the guest left no status (see $out/console.log)"; exit 1; }
guest=$(cat "$out/status")
# The proof of the whole of `full` on 6.1, for this tree (unless it changed
# meanwhile, or the test binary was not built from it).
if [ "$guest" = 0 ] && [ "$want" = 6.1 ] && [ "$suite" = full ] && [ -z "${JUDGE_VM_CLI:-}" ]; then
  if [ "$(bash tests/vm/fingerprint.sh)" != "$fingerprint" ]; then
    echo "vm: the tree changed during the run: tests/vm/full-proved not written"
  else
    {
      echo "# Written by tests/vm/run.sh after \`run.sh 6.1 full\` passed; commit it."
      echo "# tests/vm/ci.sh runs the hostile suite and the verdict table in the VM"
      echo "# when tests/vm/fingerprint.sh prints anything else."
      echo "fingerprint $fingerprint"
      echo "passed $(date -u +%Y-%m-%dT%H:%MZ) on ${kernel##*/}, slowdown $JUDGE_TEST_SLOWDOWN, VM $ran s"
      sed 's/^/  /' "$out/placements.txt"
    } >tests/vm/full-proved
    echo "vm: wrote tests/vm/full-proved (fingerprint $fingerprint): commit it"
  fi
fi
exit "$guest"
