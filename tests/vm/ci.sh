#!/usr/bin/env bash
# What .ci/run runs on every push: the cgroup-v2 VM built (or reused from
# target/vm); on kernel 6.12 the containers' placements (level, exact memory
# verdicts and peaks; 6.12 resets memory.peak in place, which every cgroup-v2
# run there exercises); on 6.1 (where a run's peak needs a cgroup of its own)
# every placement, docs/ci.md's workflow and then either
# - the hostile tests that are quick under emulation, when the sandbox is as
#   when `tests/vm/run.sh 6.1 full` last passed (the fingerprint of
#   tests/vm/fingerprint.sh is the one in tests/vm/full-proved), or
# - the whole hostile suite, the package-program tests and the verdict table
#   (run.sh's `full`) when it changed since; it then prints the proof to
#   commit, so that the next pushes take the short way again.
# Prints the placements table, the fingerprints and the time. Each VM's cap
# is a budget for a quiet host (slowdown 5) that run.sh grows with the
# slowdown it picks.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
vm="${JUDGE_VM_DIR:-$PWD/target/vm}"
bash tests/vm/build.sh
# A build whose apt step fetched a partial index (a mirror mid-sync) ends
# without bookworm-backports' kernel and apt says nothing: build again once,
# then refuse clearly (CI shows only the log's tail).
kernels() { ls "$vm"/vmlinuz-6.1[.+-]* "$vm"/vmlinuz-6.12[.+-]* >/dev/null 2>&1; }
if ! kernels; then
  echo "vm: the build left no kernel 6.1 or 6.12 in $vm ($(ls "$vm" | tr '\n' ' ')): building again"
  tail -5 "$vm/debootstrap.log" 2>/dev/null || true
  rm -f "$vm/stamp"
  bash tests/vm/build.sh
  kernels || { echo "vm: FAILED: no kernel 6.1 or 6.12 after two builds (see $vm/debootstrap.log)"; exit 1; }
fi
built=$(date +%s)
# What failed, repeated at the end of the log (CI keeps only its tail); the
# exit status is whether anything did.
failures=()
ran() { # NAME STATUS
  [ "$2" = 0 ] || failures+=("$1 (exit $2)")
}
# The guest's kernel under emulation has crashed once in many runs (6.12,
# "Fatal exception in interrupt" in __alloc_pages, in a run that passed on
# every other boot). A guest that panicked leaves no status and no verdict: its
# oops is printed (CI keeps only the log's tail, so again at the end) and it is
# booted once more (not `full`: a second would exceed CI's 90 minutes); a
# second panic fails.
panics=()
oops() { # CONSOLE: the oops, from its first line
  awk '/BUG:|Oops|general protection|cut here|Kernel panic/ { on = 1 } on && n++ < 40' "$1"
}
boot() { # KERNEL SUITE [FILTER]: run.sh's status, the guest booted again once after a panic
  local run="$1-${2//,/+}" rc=0 # run.sh's name for this run
  local out="$vm/out-$run" kept="$vm/panic-$run.log"
  bash tests/vm/run.sh "$@" || rc=$?
  if [ $rc != 0 ] && [ "$2" != full ] && [ ! -f "$out/status" ] \
    && grep -q "Kernel panic" "$out/console.log" 2>/dev/null; then
    cp "$out/console.log" "$kept"
    echo "vm: the guest's kernel $1 panicked (no verdict; its oops below, the console in" \
      "$kept); booting it again once"
    oops "$out/console.log"
    panics+=("$1 ${2}: $(grep -m1 -E 'RIP:' "$out/console.log" || echo 'no RIP line')")
    rc=0
    bash tests/vm/run.sh "$@" || rc=$?
  fi
  return $rc
}
# 6.12 runs one part, not smoke's two: the judge's own placements take ten
# minutes under emulation and differ from 6.1's only where 6.1 is the harder
# case; `run.sh 6.12 smoke` runs them all by hand. This saves CI five minutes.
rc=0; JUDGE_VM_BUDGET=1500 boot 6.12 containers || rc=$?; ran "6.12 containers" $rc
fingerprint=$(bash tests/vm/fingerprint.sh)
proved=$(awk '$1 == "fingerprint" { print $2 }' tests/vm/full-proved 2>/dev/null || true)
if [ "$fingerprint" = "$proved" ]; then
  echo "vm: the sandbox is as when \`run.sh 6.1 full\` passed ($fingerprint)"
  echo "vm: 6.1 runs the placements, the workflow and the hostile tests that are quick under emulation"
  suite=placements,containers,workflow,only
  hostile='hostile::a_slot_keeps_nothing hostile::compilation_is_limited_too
    hostile::network_fixture hostile::contained_as_an_unprivileged_user'
  rc=0; JUDGE_VM_BUDGET=1500 boot 6.1 "$suite" "$hostile" || rc=$?; ran "6.1 $suite" $rc
else
  echo "vm: the sandbox changed since \`run.sh 6.1 full\` passed (tests/vm/full-proved:" \
    "${proved:-none}; this tree: $fingerprint): 6.1 runs the whole of full"
  suite=full
  rc=0; JUDGE_VM_BUDGET=2400 boot 6.1 full || rc=$?; ran "6.1 full" $rc
  if [ $rc = 0 ]; then
    echo "vm: full passed on this tree; commit this as tests/vm/full-proved:"
    cat tests/vm/full-proved
  fi
fi
echo "== the placements (kernel | placement | level | result | what the test saw | time)"
cat "$vm/out-6.12-containers/placements.txt" "$vm/out-6.1-${suite//,/+}/placements.txt" \
  2>/dev/null || true
for p in "${panics[@]}"; do
  echo "vm: the guest's kernel panicked and was booted again: $p"
done
for f in "${failures[@]}"; do
  echo "vm: FAILED: $f"
done
if ((${#failures[@]})); then
  # Each failed run's last words: the guest's failing tests, or why it never ran.
  for out in "$vm/out-6.12-containers" "$vm/out-6.1-${suite//,/+}"; do
    [ "$(cat "$out/status" 2>/dev/null)" = 0 ] && continue
    echo "== vm: ${out##*/out-}: status $(cat "$out/status" 2>/dev/null || echo none)"
    if grep -q "Kernel panic" "$out/console.log" 2>/dev/null; then
      oops "$out/console.log"
    else
      grep -E "^(test .*FAILED|---- |failures:|.*panicked)|\| FAILED \|" "$out/guest.log" 2>/dev/null | head -20 \
        || tail -15 "$out/console.log" 2>/dev/null || echo "(no log: the VM did not start)"
    fi
  done
fi
echo "vm: build $((built - started)) s, runs $(($(date +%s) - built)) s, in all $(($(date +%s) - started)) s"
exit $((${#failures[@]} > 0))
