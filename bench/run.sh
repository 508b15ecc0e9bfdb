#!/usr/bin/env bash
# Benchmarks of the judge, printed as a Markdown table and written to
# target/bench.json. Every figure is measured in this run and contenders are
# interleaved round by round, so machine drift cancels out; medians are
# reported, with ratios against the spawn floor measured alongside.
#
#   bench/run.sh           full run
#   bench/run.sh --quick   fewer rounds and spawns (under two minutes)
#
# Never part of .ci/run's pass/fail: these are figures, not assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
ROUNDS=5; SPAWNS=2000; TESTS=200
if [ $QUICK = 1 ]; then ROUNDS=3; SPAWNS=600; fi

WS=$ROOT/target/bench-ws
rm -rf "$WS"; mkdir -p "$WS/problems/ab" "$WS/testdata/ab"
cargo build --release --quiet
JUDGE=$ROOT/target/release/judge
rustc -O --edition 2021 -o "$WS/floor" bench/floor.rs

# The A+B program (dynamically linked C++) and its problem with $TESTS tests.
cat > "$WS/ab.cpp" <<'CPP'
#include <cstdio>
int main() { long long a, b; if (scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", a + b); }
CPP
g++ -O2 -o "$WS/ab" "$WS/ab.cpp"
printf 'id = "ab"\ntitle = "A+B"\ntime_limit = "1s"\nmemory_limit = "64MiB"\n[[tests]]\ngroup = "t"\nload = ["*"]\n' > "$WS/problems/ab/problem.toml"
for i in $(seq 1 $TESTS); do
  echo "$i $((i * 7))" > "$WS/testdata/ab/$i.in"
  echo $((i * 8)) > "$WS/testdata/ab/$i.ans"
done
touch "$WS/judge.toml"
cd "$WS"

# Warm the build and answer caches, and learn the full isolation level.
"$JUDGE" --isolation none run ab ab.cpp -j 1 >/dev/null
LEVEL=$("$JUDGE" run ab ab.cpp -j 1 --format json 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["isolation"])')

now() { date +%s.%N; }
per_test_us() { # ISOLATION: total wall of a whole judge run / TESTS, in µs
  local t0 t1; t0=$(now)
  "$JUDGE" --isolation "$1" run ab ab.cpp -j 1 --format json >/dev/null 2>&1
  t1=$(now)
  python3 -c "print(f'{($t1 - $t0) * 1e6 / $TESTS:.1f}')"
}

declare -a FLOOR NONE FULL
for r in $(seq 1 $ROUNDS); do
  FLOOR+=("$("$WS/floor" "$WS/ab" "$WS/testdata/ab/1.in" $SPAWNS)")
  NONE+=("$(per_test_us none)")
  FULL+=("$(per_test_us auto)")
  echo "round $r/$ROUNDS: floor ${FLOOR[-1]} us, judge ${NONE[-1]} us, sandboxed ${FULL[-1]} us per test" >&2
done

python3 - "$LEVEL" "${FLOOR[*]}" "${NONE[*]}" "${FULL[*]}" <<'PY'
import json, statistics, sys
level = sys.argv[1]
floor, none, full = (list(map(float, a.split())) for a in sys.argv[2:5])
m = statistics.median
res = {
    "floor_us": round(m(floor), 1),
    "judge_us_per_test": round(m(none), 1),
    "judge_sandboxed_us_per_test": round(m(full), 1),
    "sandbox_level": level,
}
res["ratio_judge_floor"] = round(res["judge_us_per_test"] / res["floor_us"], 3)
res["ratio_sandboxed_floor"] = round(res["judge_sandboxed_us_per_test"] / res["floor_us"], 3)
res["ratio_sandboxed_judge"] = round(res["judge_sandboxed_us_per_test"] / res["judge_us_per_test"], 3)
json.dump(res, open("../bench.json", "w"), indent=2)
print("| measure | median | ratio |")
print("|---|---|---|")
print(f"| spawn floor (Rust, pipes, wait), per run | {res['floor_us']} us | 1.00 |")
print(f"| judge, isolation rlimit-only, per test | {res['judge_us_per_test']} us | {res['ratio_judge_floor']} x floor |")
print(f"| judge, isolation {level}, per test | {res['judge_sandboxed_us_per_test']} us | {res['ratio_sandboxed_floor']} x floor, {res['ratio_sandboxed_judge']} x rlimit-only |")
PY
echo "wrote target/bench.json" >&2
