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
ROUNDS=5; SPAWNS=2000; TESTS=200; ITERATIONS=1000
if [ $QUICK = 1 ]; then ROUNDS=3; SPAWNS=600; ITERATIONS=300; fi

WS=$ROOT/target/bench-ws
rm -rf "$WS"; mkdir -p "$WS/problems/ab" "$WS/testdata/ab" "$WS/problems/ab-stress"
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
# The same A+B as a stress target: C generator, validator and reference, so an
# iteration is four small dynamically linked programs (gen, validator,
# reference, the file), each about the floor's cost.
P=$WS/problems/ab-stress
cat > "$P/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { unsigned long s = strtoul(argv[2], 0, 10) * 2654435761u; printf("%lu %lu\n", s % 1000, (s >> 10) % 1000); }
C
cat > "$P/validator.c" <<'C'
#include <stdio.h>
int main(void) { long a, b; return scanf("%ld %ld", &a, &b) == 2 && a >= 0 && b >= 0 ? 0 : 1; }
C
cat > "$P/reference.c" <<'C'
#include <stdio.h>
int main(void) { long a, b; if (scanf("%ld %ld", &a, &b) == 2) printf("%ld\n", a + b); }
C
printf 'id = "ab-stress"\ntitle = "A+B"\ntime_limit = "1s"\nmemory_limit = "64MiB"\ntestdata = "."\n[generator]\nsource = "gen.c"\n[validator]\nsource = "validator.c"\n[reference]\nsource = "reference.c"\n[stress]\ngenerate = ["small", "{seed}", "{size}"]\n[[tests]]\ngroup = "t"\ngenerate = ["small", "1", "1"]\n' > "$P/problem.toml"
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

# Stress: iterations per second of the search loop as judge reports it
# (compiles cached; setup excluded), with --jobs 1 (comparable with the
# single-threaded floor) and --jobs 2.
"$JUDGE" stress ab-stress ab.cpp --iterations 20 >/dev/null
stress_ips() { # JOBS
  "$JUDGE" -j "$1" stress ab-stress ab.cpp --iterations $ITERATIONS --format json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations_per_second"])'
}

declare -a FLOOR NONE FULL STRESS1 STRESS2
for r in $(seq 1 $ROUNDS); do
  FLOOR+=("$("$WS/floor" "$WS/ab" "$WS/testdata/ab/1.in" $SPAWNS)")
  NONE+=("$(per_test_us none)")
  FULL+=("$(per_test_us auto)")
  STRESS1+=("$(stress_ips 1)")
  STRESS2+=("$(stress_ips 2)")
  echo "round $r/$ROUNDS: floor ${FLOOR[-1]} us, judge ${NONE[-1]} us, sandboxed ${FULL[-1]} us per test; stress ${STRESS1[-1]} it/s (-j 1), ${STRESS2[-1]} it/s (-j 2)" >&2
done

python3 - "$LEVEL" "${FLOOR[*]}" "${NONE[*]}" "${FULL[*]}" "${STRESS1[*]}" "${STRESS2[*]}" <<'PY'
import json, statistics, sys
level = sys.argv[1]
floor, none, full, stress1, stress2 = (list(map(float, a.split())) for a in sys.argv[2:7])
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
# An iteration is 4 processes (generator, validator, reference, the file).
res["stress_iters_per_sec"] = round(m(stress1), 1)
res["stress_iters_per_sec_jobs2"] = round(m(stress2), 1)
res["stress_us_per_iteration"] = round(1e6 / res["stress_iters_per_sec"], 1)
res["ratio_stress_floor"] = round(res["stress_us_per_iteration"] / res["floor_us"], 3)
res["ratio_stress_floor_per_process"] = round(res["ratio_stress_floor"] / 4, 3)
json.dump(res, open("../bench.json", "w"), indent=2)
print("| measure | median | ratio |")
print("|---|---|---|")
print(f"| spawn floor (Rust, pipes, wait), per run | {res['floor_us']} us | 1.00 |")
print(f"| judge, isolation rlimit-only, per test | {res['judge_us_per_test']} us | {res['ratio_judge_floor']} x floor |")
print(f"| judge, isolation {level}, per test | {res['judge_sandboxed_us_per_test']} us | {res['ratio_sandboxed_floor']} x floor, {res['ratio_sandboxed_judge']} x rlimit-only |")
print(f"| stress, -j 1, per iteration (4 processes) | {res['stress_us_per_iteration']} us ({res['stress_iters_per_sec']} it/s) | {res['ratio_stress_floor']} x floor, {res['ratio_stress_floor_per_process']} x floor per process |")
print(f"| stress, -j 2 | {res['stress_iters_per_sec_jobs2']} it/s | |")
PY
echo "wrote target/bench.json" >&2
