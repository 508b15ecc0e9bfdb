#!/usr/bin/env bash
# `judge verify` against problemtools' `verifyproblem` on the same ICPC
# packages, same machine, same run, alternated round by round: the export of
# a bundled problem and the legacy fixture tests/fixtures/kattis/sumab.
# Prints a Markdown table and writes target/bench-packages.json.
#
#   bench/packages.sh           3 rounds
#   bench/packages.sh --quick   1 round
#
# Both tools prove the package: every submission must get the verdict its
# directory names (judge exits 0, verifyproblem says "0 errors"); a
# disagreement is printed and fails the script, as a broken bench would.
# Each tool starts cold: judge with an empty cache directory (every program
# compiled, every test run), as verifyproblem compiles and runs everything
# on every run. judge's warm figure (builds cached, every test run again with
# --no-cache: a setter's loop after changing tests) is printed beside it.
#
# verifyproblem comes from $JUDGE_TEST_VERIFYPROBLEM, target/ci-tools or
# /opt/venvs/problemtools (.ci/run installs it); without it this prints a
# note and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=3
[ "${1:-}" = "--quick" ] && ROUNDS=1
note() { echo "bench: $*" >&2; }

VP=${JUDGE_TEST_VERIFYPROBLEM:-}
for candidate in "$ROOT/target/ci-tools/problemtools/bin/verifyproblem" /opt/venvs/problemtools/bin/verifyproblem; do
  [ -n "$VP" ] || { [ -x "$candidate" ] && VP=$candidate; } || true
done
if [ -z "$VP" ] || [ ! -x "$VP" ]; then
  note "verifyproblem not found (set JUDGE_TEST_VERIFYPROBLEM; .ci/run installs it): packages skipped"
  exit 0
fi

cargo build --release --quiet
JUDGE=$ROOT/target/release/judge
WS=$ROOT/target/bench-packages
rm -rf "$WS"; mkdir -p "$WS"
"$JUDGE" export acwing-891 --format kattis-legacy --out "$WS/acwing891" >/dev/null
cp -r tests/fixtures/kattis/sumab "$WS/sumab"
# Python as judge runs it (CPython): problemtools reads languages.yaml from
# the package's parent directory.
printf '%s\n' "python3:" "  compile: '/usr/bin/python3 -m py_compile {files}'" \
  "  run: '/usr/bin/python3 \"{mainfile}\"'" > "$WS/languages.yaml"

# judge's own cache in the workspace, emptied before each cold run.
printf 'cache_dir = "%s/cache"\n' "$WS" > "$WS/judge.toml"
J=("$JUDGE" --config "$WS/judge.toml")

now() { python3 -c 'import time; print(time.monotonic())'; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
declare -A COLD WARM PEER
for pkg in acwing891 sumab; do
  for r in $(seq 1 "$ROUNDS"); do
    rm -rf "$WS/cache"
    t0=$(now)
    if ! "${J[@]}" verify "$WS/$pkg" >"$WS/judge.out" 2>&1; then
      cat "$WS/judge.out" >&2; note "judge verify $pkg failed"; exit 1
    fi
    t1=$(now)
    "${J[@]}" --no-cache verify "$WS/$pkg" >/dev/null 2>&1
    t2=$(now)
    "$VP" "$WS/$pkg" -p config validators graders data submissions >"$WS/peer.out" 2>&1 || true
    t3=$(now)
    if ! grep -q 'tested: 0 errors' "$WS/peer.out"; then
      cat "$WS/peer.out" >&2; note "verifyproblem $pkg found errors"; exit 1
    fi
    cold=$(elapsed "$t0" "$t1")
    COLD[$pkg]+="$cold "
    WARM[$pkg]+="$(elapsed "$t1" "$t2") "
    PEER[$pkg]+="$(elapsed "$t2" "$t3") "
    note "$pkg round $r/$ROUNDS: judge cold $cold warm $(elapsed "$t1" "$t2") s, verifyproblem $(elapsed "$t2" "$t3") s"
  done
done

python3 - "${COLD[acwing891]}" "${WARM[acwing891]}" "${PEER[acwing891]}" \
  "${COLD[sumab]}" "${WARM[sumab]}" "${PEER[sumab]}" "$ROUNDS" <<'PY'
import json, statistics, sys
args = sys.argv[1:7]
rounds = int(sys.argv[7])
nums = lambda a: list(map(float, a.split()))
res = {"rounds": rounds}
print("| package | judge verify, cold | judge verify, warm | verifyproblem | ratio (cold) | target |")
print("|---|---|---|---|---|---|")
for i, name in enumerate(["acwing891", "sumab"]):
    cold, warm, peer = (nums(a) for a in args[3 * i:3 * i + 3])
    # The ratio of each round (both measured minutes apart at most), median.
    ratio = statistics.median(p / c for p, c in zip(peer, cold))
    res[name] = {"judge_cold_s": statistics.median(cold), "judge_warm_s": statistics.median(warm),
                 "verifyproblem_s": statistics.median(peer), "ratio_verifyproblem_judge": round(ratio, 2),
                 "same_verdicts": True}
    r = res[name]
    print(f"| {name} | {r['judge_cold_s']} s | {r['judge_warm_s']} s | {r['verifyproblem_s']} s | {r['ratio_verifyproblem_judge']} x | >= 5 |")
json.dump(res, open("target/bench-packages.json", "w"), indent=2)
PY
note "wrote target/bench-packages.json"
