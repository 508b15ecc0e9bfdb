#!/usr/bin/env bash
# What .ci/run runs on every push: the cgroup-v2 VM built (or reused from
# target/vm), the smoke set (every placement, the memory verdicts, docs/ci.md's
# workflow) on kernel 6.12, and the same plus the hostile suite and the
# verdict table on kernel 6.1 (the kernels before 6.12 are where a run's peak
# needs a cgroup of its own). Prints the placements table and the time.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
bash tests/vm/build.sh
built=$(date +%s)
status=0
JUDGE_VM_TIMEOUT=1500 bash tests/vm/run.sh 6.12 smoke || status=1
JUDGE_VM_TIMEOUT=2700 bash tests/vm/run.sh 6.1 full || status=1
echo "== the placements (kernel | placement | level | result | what the test saw | time)"
cat target/vm/out-6.12-smoke/placements.txt target/vm/out-6.1-full/placements.txt 2>/dev/null || true
echo "vm: build $((built - started)) s, runs $(($(date +%s) - built)) s, in all $(($(date +%s) - started)) s"
exit $status
