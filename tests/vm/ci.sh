#!/usr/bin/env bash
# What .ci/run runs on every push: the cgroup-v2 VM built (or reused from
# target/vm), every placement (level, exact memory verdicts and peaks) on
# kernels 6.12 and 6.1, and on 6.1 (where a run's peak needs a cgroup of its
# own) docs/ci.md's workflow and the hostile tests that hold under emulation.
# When the sandbox changed since `tests/vm/run.sh 6.1 full` last passed (the
# fingerprint of tests/vm/fingerprint.sh differs from tests/vm/full-proved's),
# it says so; with JUDGE_VM_FULL=1 the 6.1 run is then the whole of `full`
# (the hostile suite and the verdict table too). Not on by default yet: `full`
# takes over an hour under emulation here, which .ci/run's 60 minutes cannot
# hold, and one hostile test does not pass there yet (tests/vm/README.md).
# Prints the placements table, the fingerprints and the time. Each VM's cap is a budget for a quiet host (slowdown 5) that run.sh
# grows with the slowdown it picks.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
bash tests/vm/build.sh
built=$(date +%s)
status=0
JUDGE_VM_BUDGET=1500 bash tests/vm/run.sh 6.12 smoke || status=1
fingerprint=$(bash tests/vm/fingerprint.sh)
proved=$(awk '$1 == "fingerprint" { print $2 }' tests/vm/full-proved 2>/dev/null || true)
if [ "$fingerprint" = "$proved" ] || [ "${JUDGE_VM_FULL:-0}" != 1 ]; then
  if [ "$fingerprint" = "$proved" ]; then
    echo "vm: the sandbox is as when \`run.sh 6.1 full\` passed ($fingerprint)"
  else
    echo "vm: NOTE: the sandbox changed since \`run.sh 6.1 full\` last passed" \
      "(tests/vm/full-proved: ${proved:-none}; this tree: $fingerprint):" \
      "run \`sudo bash tests/vm/run.sh 6.1 full\` (or JUDGE_VM_FULL=1 here) and commit its proof"
  fi
  echo "vm: 6.1 runs the placements, the workflow and the hostile tests that hold under emulation"
  suite=placements,workflow,only
  hostile='hostile::a_slot_keeps_nothing hostile::compilation_is_limited_too
    hostile::network_fixture hostile::contained_as_an_unprivileged_user'
  JUDGE_VM_BUDGET=2400 bash tests/vm/run.sh 6.1 "$suite" "$hostile" || status=1
else
  echo "vm: the sandbox changed since \`run.sh 6.1 full\` passed (tests/vm/full-proved:" \
    "${proved:-none}; this tree: $fingerprint): 6.1 runs the whole of full"
  suite=full
  if JUDGE_VM_BUDGET=3000 bash tests/vm/run.sh 6.1 full; then
    echo "vm: full passed on this tree; commit this as tests/vm/full-proved:"
    cat tests/vm/full-proved
  else
    status=1
  fi
fi
echo "== the placements (kernel | placement | level | result | what the test saw | time)"
cat target/vm/out-6.12-smoke/placements.txt "target/vm/out-6.1-${suite//,/+}/placements.txt" \
  2>/dev/null || true
echo "vm: build $((built - started)) s, runs $(($(date +%s) - built)) s, in all $(($(date +%s) - started)) s"
exit $status
