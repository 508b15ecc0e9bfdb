#!/usr/bin/env bash
# Benchmarks of the judge, printed as a Markdown table and written to
# target/bench.json. Every figure is measured in this run, contenders are
# interleaved round by round so that machine drift cancels out, medians are
# reported, and every ratio is against a baseline measured alongside.
#
#   bench/run.sh           full run (a few minutes)
#   bench/run.sh --quick   fewer rounds, smaller files (about 15 minutes on 2 cores
#                          with every part; the spawn comparison about 3)
#
# Contenders and baselines:
#   floor      bench/floor.rs: spawn the A+B binary with pipes, read, wait
#   judge      `judge run` on 200 A+B tests, --no-cache, -j 1 (per test =
#              total wall / 200), rlimit-only (`--isolation none`) and full
#              isolation; also with the default --jobs
#   oj         `oj test` (online-judge-tools, PyPI) on the same 200 tests,
#              installed into target/bench-venv when missing
#   dmoj       the DMOJ judge (PyPI `dmoj`, `dmoj-cli`) on the same 200
#              tests, when it installs (it needs libseccomp-dev); per test
#              = (time for 200 tests - time for 1) / 199, so its start-up
#              and compilation are not counted; skipped with a note if not
#   checker    `cargo bench --bench checker`: the tokens checker on 100 MB
#              outputs, with `cmp` and a naive token split as baselines;
#              GB/s of both files read, as the issue's `cmp` figure counts
#   big output the judge's own peak RSS judging a 1 GiB output
#   cpu spread max/min CPU time of a 300 ms CPU-bound program, 20 tests, -j 2,
#              the median of several runs; against bench/spread.py, the same
#              20 runs two at a time with no judge (the machine's own spread)
#   stress     `judge stress` iterations per second
#   interactive bench/interactive.sh: an interactive test against the same two
#              programs joined by a bare pipe pair (bench/pipe_pair.rs)
#   packages   bench/packages.sh: `judge verify` against problemtools'
#              `verifyproblem` on the same ICPC packages (when installed)
#   languages  bench/languages.sh: each shipped language's trivial program:
#              cold compile, run CPU and wall time, peak memory
#   samples    bench/samples.py: the contestant's loop, edit to verdict on a
#              samples folder (written by `judge listen`), `judge run`
#              against `g++ && oj test` on the same folder (when oj installed)
#   waiting    bench/waiting.py: edit to verdict against plain g++, a mock
#              contest lazy and --all-tests (and the judge's CPU share),
#              judge verify cold and warm (keys in target/bench.json)
#   serve      bench/serve.py: judge serve with 100 teams submitting over
#              loopback (target/bench-serve.json)
#   judgehosts bench/judgehosts.py: 1, 2, 3 judging hosts over PostgreSQL
#              against batch, the queue's overhead (target/bench-judgehosts.json)
#
# Never part of .ci/run's pass/fail: these are figures, not assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
# A round alternates PAIRS + 1 floor runs of TESTS spawns each (2200 spawns
# in a full round) with PAIRS runs of the judge at each level.
ROUNDS=7; PAIRS=10; TESTS=200; ITERATIONS=1000; CHECKER_MB=100; BIG_MIB=1024; SPREADS=6
if [ $QUICK = 1 ]; then ROUNDS=3; PAIRS=3; ITERATIONS=300; CHECKER_MB=20; BIG_MIB=256; SPREADS=2; fi
note() { echo "bench: $*" >&2; }
for tool in gcc g++ python3 cmp /usr/bin/time taskset; do
  command -v "$tool" >/dev/null || { note "needs $tool (Debian: gcc g++ python3 diffutils time util-linux)"; exit 2; }
done

WS=$ROOT/target/bench-ws
rm -rf "$WS"; mkdir -p "$WS/problems/ab" "$WS/testdata/ab" "$WS/problems/ab-stress" \
  "$WS/problems/big" "$WS/testdata/big" "$WS/problems/spin" "$WS/testdata/spin" "$WS/oj"
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
# The same tests judged by a custom checker (C, testlib's exit codes), a
# package program run per test in the sandbox: `bench/ab.py A B strict 20
# ab-checker` measures that path.
mkdir -p "$WS/problems/ab-checker"
cat > "$WS/problems/ab-checker/checker.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 4) return 3;
    FILE *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    long long x, y;
    if (!out || !ans || fscanf(ans, "%lld", &y) != 1) return 3;
    return fscanf(out, "%lld", &x) == 1 && x == y ? 0 : 1;
}
C
printf 'id = "ab-checker"\ntitle = "A+B"\ntime_limit = "1s"\nmemory_limit = "64MiB"\ntestdata = "tests"\n[checker]\ntype = "custom"\nsource = "checker.c"\n[[tests]]\ngroup = "t"\nload = ["*"]\n' > "$WS/problems/ab-checker/problem.toml"
for i in $(seq 1 $TESTS); do
  echo "$i $((i * 7))" > "$WS/testdata/ab/$i.in"
  echo $((i * 8)) > "$WS/testdata/ab/$i.ans"
  cp "$WS/testdata/ab/$i.in" "$WS/oj/$i.in"
  cp "$WS/testdata/ab/$i.ans" "$WS/oj/$i.out"
done
cp -r "$WS/testdata/ab" "$WS/problems/ab-checker/tests"
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

# A program printing $BIG_MIB MiB of tokens, judged against the same bytes
# under a large output limit: the judge must stream, not hold, the output.
cat > "$WS/big.c" <<C
#include <stdio.h>
#include <string.h>
int main(void) {
  static char line[1 << 16];
  for (size_t i = 0; i + 10 <= sizeof line; i += 10) memcpy(line + i, "123456789\n", 10);
  size_t n = sizeof line - sizeof line % 10;
  for (long i = 0; i < (${BIG_MIB}L << 20) / (long)n; i++) fwrite(line, 1, n, stdout);
}
C
gcc -O2 -o "$WS/big" "$WS/big.c"
printf 'id = "big"\ntitle = "Big output"\ntime_limit = "60s"\nmemory_limit = "256MiB"\noutput_limit = "4GiB"\n[[tests]]\ngroup = "t"\nload = ["*"]\n' > "$WS/problems/big/problem.toml"
echo 1 > "$WS/testdata/big/1.in"
"$WS/big" > "$WS/testdata/big/1.ans"

# A CPU-bound program of about 300 ms, calibrated here, judged 20 times.
cat > "$WS/spin.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n; if (scanf("%ld", &n) != 1) return 1;
  volatile unsigned long x = 1;
  for (long i = 0; i < n; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  printf("%d\n", (int)(x & 1) * 0);
}
C
gcc -O2 -o "$WS/spin" "$WS/spin.c"
calibrate() { # ITERATIONS -> CPU ms
  /usr/bin/time -f %U sh -c "echo $1 | '$WS/spin' >/dev/null" 2>&1 | tail -1 | python3 -c 'import sys; print(max(1, round(float(sys.stdin.read()) * 1000)))'
}
SPIN=50000000
SPIN=$(python3 -c "print(int($SPIN * 300 / $(calibrate $SPIN)))")
printf 'id = "spin"\ntitle = "CPU spin"\ntime_limit = "5s"\nmemory_limit = "64MiB"\n[[tests]]\ngroup = "t"\nload = ["*"]\n' > "$WS/problems/spin/problem.toml"
for i in $(seq 1 20); do echo $SPIN > "$WS/testdata/spin/$i.in"; echo 0 > "$WS/testdata/spin/$i.ans"; done
touch "$WS/judge.toml"
cd "$WS"

now() { date +%s.%N; }

# oj and DMOJ in a scratch virtualenv (the machine's python3 with pip).
VENV=$ROOT/target/bench-venv
OJ=""; DMOJ=""
if [ -x "$VENV/bin/oj" ] || { python3 -m venv "$VENV" >/dev/null 2>&1 && "$VENV/bin/pip" install -q online-judge-tools >/dev/null 2>&1; }; then
  OJ=$VENV/bin/oj
else
  note "oj (online-judge-tools) could not be installed: skipped"
fi
if [ -x "$VENV/bin/dmoj-cli" ] || { [ -x "$VENV/bin/pip" ] && "$VENV/bin/pip" install -q dmoj >/dev/null 2>&1; }; then
  DMOJ=$VENV/bin/dmoj-cli
  # The same tests as a DMOJ problem (and a one-test copy, to subtract its
  # start-up: executor self-tests and the compilation), and only the C++
  # runtime configured.
  mkdir -p dmoj/ab dmoj/ab1
  cp oj/*.in oj/*.out dmoj/ab/
  cp oj/1.in oj/1.out dmoj/ab1/
  { echo "test_cases:"; for i in $(seq 1 $TESTS); do echo "- {in: $i.in, out: $i.out, points: 1}"; done; } > dmoj/ab/init.yml
  printf 'test_cases:\n- {in: 1.in, out: 1.out, points: 1}\n' > dmoj/ab1/init.yml
  printf 'problem_storage_globs:\n  - %s/dmoj/*\nruntime:\n  g++17: %s\n' "$WS" "$(command -v g++)" > dmoj/judge.yml
else
  note "DMOJ (pip install dmoj; needs libseccomp-dev and a C compiler) could not be installed: skipped"
fi
dmoj_per_test() { # µs per test: (all tests - one test) / (TESTS - 1); empty if it failed
  local t0 t1 t2 one all; t0=$(now)
  one=$(echo "submit ab1 CPP17 ab.cpp" | "$DMOJ" -c dmoj/judge.yml 2>&1 || true); t1=$(now)
  all=$(echo "submit ab CPP17 ab.cpp" | "$DMOJ" -c dmoj/judge.yml 2>&1 || true); t2=$(now)
  if [ "$(grep -c ' AC \[' <<<"$one")" = 1 ] && [ "$(grep -c ' AC \[' <<<"$all")" = "$TESTS" ]; then
    python3 -c "print(f'{(($t2 - $t1) - ($t1 - $t0)) * 1e6 / ($TESTS - 1):.1f}')"
  else
    note "DMOJ did not accept every test: its figure is skipped"
  fi
}

# Warm the build and answer caches, and learn the full isolation level.
"$JUDGE" --isolation none run ab ab.cpp -j 1 >/dev/null
LEVEL=$("$JUDGE" run ab ab.cpp -j 1 --format json 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["isolation"])')
"$JUDGE" run spin spin.c --tests 1 >/dev/null

per_test() { # COMMAND...: total wall / TESTS, in µs
  local t0 t1; t0=$(now)
  "$@" >/dev/null 2>&1 || true
  t1=$(now)
  python3 -c "print(f'{($t1 - $t0) * 1e6 / $TESTS:.1f}')"
}

# Stress: iterations per second of the search loop as judge reports it
# (compiles cached; setup excluded), with --jobs 1 and --jobs 2.
"$JUDGE" stress ab-stress ab.cpp --iterations 20 >/dev/null
stress_ips() { # JOBS
  "$JUDGE" -j "$1" stress ab-stress ab.cpp --iterations $ITERATIONS --format json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations_per_second"])'
}

floor_run() { "$WS/floor" "$WS/ab" "$WS/testdata/ab/1.in" $TESTS; }
# The floor kept to one CPU, as a one-job judging keeps itself (its last).
LAST_CPU=$(taskset -pc $$ | sed 's/.*: //; s/.*[,-]//')
floor_one_cpu_run() { taskset -c "$LAST_CPU" "$WS/floor" "$WS/ab" "$WS/testdata/ab/1.in" $TESTS; }
# FLOOR, NONE and FULL hold every run, in order: in each round a floor run
# comes before and after each pair of judge runs, about a second apart, so
# each judge run is compared with the floor measured just around it. Between
# them: the floor on one CPU and the judge with --cpu off.
declare -a FLOOR NONE FULL NONE2 FULL2 OJT DMOJT STRESS1 STRESS2 FLOOR1 NONEOFF
for r in $(seq 1 $ROUNDS); do
  FLOOR+=("$(floor_run)")
  for p in $(seq 1 $PAIRS); do
    NONE+=("$(per_test "$JUDGE" --no-cache --isolation none run ab ab.cpp -j 1 --format json)")
    FLOOR1+=("$(floor_one_cpu_run)")
    NONEOFF+=("$(per_test "$JUDGE" --no-cache --isolation none --cpu off run ab ab.cpp -j 1 --format json)")
    FULL+=("$(per_test "$JUDGE" --no-cache --isolation auto run ab ab.cpp -j 1 --format json)")
    FLOOR+=("$(floor_run)")
  done
  NONE2+=("$(per_test "$JUDGE" --no-cache --isolation none run ab ab.cpp --format json)")
  FULL2+=("$(per_test "$JUDGE" --no-cache --isolation auto run ab ab.cpp --format json)")
  if [ -n "$OJ" ]; then OJT+=("$(per_test "$OJ" test -c ./ab -d oj)"); fi
  if [ -n "$DMOJ" ]; then d=$(dmoj_per_test); if [ -n "$d" ]; then DMOJT+=("$d"); fi; fi
  STRESS1+=("$(stress_ips 1)")
  STRESS2+=("$(stress_ips 2)")
  note "round $r/$ROUNDS, last runs: floor ${FLOOR[-1]} us; judge ${NONE[-1]} us (rlimit-only), ${FULL[-1]} us ($LEVEL) per test; oj ${OJT[*]:+${OJT[-1]} us}; dmoj ${DMOJT[*]:+${DMOJT[-1]} us}"
done

# The judge's own peak RSS on a big output (GNU time's max RSS of the judge
# and the processes it waited for; the submission itself stays small).
BIG_RSS=$(/usr/bin/time -f %M "$JUDGE" --no-cache run big big.c --format json 2>&1 >/dev/null | tail -1)
BIG_VERDICT=$("$JUDGE" run big big.c --format json 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["verdict"])')

# CPU time spread of 20 identical CPU-bound runs, two at a time: the judge,
# and bench/spread.py running the same program the same way with no judge
# (the machine's own spread), alternated SPREADS times.
judge_spread() {
  "$JUDGE" --no-cache -j 2 run spin spin.c --format json 2>/dev/null | python3 -c '
import json, sys
times = [t["time_ms"] for t in json.loads(sys.stdin.readline())["tests"]]
print(f"{max(times) / max(min(times), 1):.3f} {min(times)} {max(times)}")'
}
floor_spread() { python3 "$ROOT/bench/spread.py" "$WS/spin" "$WS/testdata/spin/1.in" 20 2; }
declare -a SPREAD SPREAD0
for r in $(seq 1 $SPREADS); do
  SPREAD+=("$(judge_spread)")
  SPREAD0+=("$(floor_spread)")
done
note "CPU spread, judge: ${SPREAD[*]}; no judge: ${SPREAD0[*]}"

cd "$ROOT"
CHECKER=$(cargo bench --quiet --bench checker -- $CHECKER_MB 2>/dev/null | tail -1)

python3 - "$LEVEL" "${FLOOR[*]}" "${NONE[*]}" "${FULL[*]}" "${NONE2[*]}" "${FULL2[*]}" \
  "${OJT[*]:-}" "${DMOJT[*]:-}" "${STRESS1[*]}" "${STRESS2[*]}" "$CHECKER" "$BIG_RSS" "$BIG_MIB" \
  "$BIG_VERDICT" "${SPREAD[*]}" "$QUICK" "$ROUNDS" "$PAIRS" "$TESTS" "${FLOOR1[*]}" "${NONEOFF[*]}" "${SPREAD0[*]}" <<'PY'
import json, statistics, sys
(level, floor, none, full, none2, full2, oj, dmoj, stress1, stress2, checker,
 big_rss, big_mib, big_verdict, spread, quick, rounds, pairs, tests, floor1,
 noneoff, spread0) = sys.argv[1:23]
rounds, pairs = int(rounds), int(pairs)
nums = lambda a: list(map(float, a.split()))
m = lambda a: round(statistics.median(nums(a)), 1) if a.strip() else None
res = {"quick": quick == "1", "sandbox_level": level, "rounds": rounds,
       "pairs_per_round": pairs, "floor_spawns_per_run": int(tests)}
res["floor_us"] = m(floor)
res["judge_us_per_test"] = m(none)
res["judge_sandboxed_us_per_test"] = m(full)
# Each judge run against the mean of the floor runs just before and after
# it: pair ratios, by round; the reported ratio is their median.
def pair_ratios(judge):
    f, j = nums(floor), nums(judge)
    assert len(f) == rounds * (pairs + 1) and len(j) == rounds * pairs
    return [[j[r * pairs + p] / ((f[r * (pairs + 1) + p] + f[r * (pairs + 1) + p + 1]) / 2)
             for p in range(pairs)] for r in range(rounds)]
flat = lambda rs: [x for r in rs for x in r]
def quartiles(xs):
    q = statistics.quantiles(xs, n=4)
    return [round(q[0], 3), round(q[2], 3)]
none_pairs, full_pairs = pair_ratios(none), pair_ratios(full)
floor1_pairs, noneoff_pairs = pair_ratios(floor1), pair_ratios(noneoff)
res["floor_one_cpu_us"] = m(floor1)
res["judge_us_per_test_cpu_off"] = m(noneoff)
res["ratio_floor_one_cpu_floor"] = round(statistics.median(flat(floor1_pairs)), 3)
res["ratio_judge_cpu_off_floor"] = round(statistics.median(flat(noneoff_pairs)), 3)
# The judge (on one CPU) against the floor on one CPU, run by run.
res["ratio_judge_floor_one_cpu"] = round(statistics.median(
    j / f for j, f in zip(nums(none), nums(floor1))), 3)
# Per round, the median of its runs (oj and DMOJ run once a round).
by_round = lambda a, k: " ".join(str(statistics.median(nums(a)[r * k:(r + 1) * k])) for r in range(rounds))
none, full = by_round(none, pairs), by_round(full, pairs)
res["judge_us_per_test_default_jobs"] = m(none2)
res["judge_sandboxed_us_per_test_default_jobs"] = m(full2)
res["oj_us_per_test"] = m(oj)
res["dmoj_us_per_test"] = m(dmoj)
ratio = lambda a, b: round(a / b, 3) if a is not None and b else None
# A contender's ratio to a baseline is the median over rounds of the ratio
# within each round (measured minutes apart at most), so that the machine's
# drift between rounds cancels out; with a round missing, of the medians.
def round_ratio(a, b):
    a, b = a.split(), b.split()
    if not a or not b:
        return None
    if len(a) != len(b):
        return ratio(statistics.median(map(float, a)), statistics.median(map(float, b)))
    return round(statistics.median(float(x) / float(y) for x, y in zip(a, b)), 3)
res["ratio_judge_floor"] = round(statistics.median(flat(none_pairs)), 3)
res["ratio_sandboxed_floor"] = round(statistics.median(flat(full_pairs)), 3)
res["ratio_judge_floor_quartiles"] = quartiles(flat(none_pairs))
res["ratio_sandboxed_floor_quartiles"] = quartiles(flat(full_pairs))
res["ratio_oj_judge"] = round_ratio(oj, none)
res["ratio_oj_judge_sandboxed"] = round_ratio(oj, full)
res["ratio_dmoj_judge_sandboxed"] = round_ratio(dmoj, full)
res["rounds_ratio_judge_floor"] = [round(statistics.median(r), 3) for r in none_pairs]
res["rounds_ratio_sandboxed_floor"] = [round(statistics.median(r), 3) for r in full_pairs]
c = json.loads(checker)
res.update(c)
res["ratio_checker_equal_cmp"] = ratio(c["checker_gbps_equal"], c["cmp_gbps"])
res["ratio_checker_tokens_naive"] = ratio(c["checker_gbps_tokens"], c["naive_split_gbps"])
res["judge_peak_rss_mib_big_output"] = round(int(big_rss) / 1024, 1)
res["big_output_mib"] = int(big_mib)
res["big_output_verdict"] = big_verdict
# Each spread run prints "ratio min max"; the figure is the median run's.
def spreads(text):
    words = text.split()
    return [(float(words[i]), int(words[i + 1]), int(words[i + 2])) for i in range(0, len(words), 3)]
judge_spreads, floor_spreads = spreads(spread), spreads(spread0)
res["cpu_spread_jobs2"] = round(statistics.median(s for s, _, _ in judge_spreads), 3)
res["cpu_spread_jobs2_runs"] = [s for s, _, _ in judge_spreads]
res["cpu_spread_min_ms"] = min(lo for _, lo, _ in judge_spreads)
res["cpu_spread_max_ms"] = max(hi for _, _, hi in judge_spreads)
res["cpu_spread_no_judge"] = round(statistics.median(s for s, _, _ in floor_spreads), 3)
res["cpu_spread_no_judge_runs"] = [s for s, _, _ in floor_spreads]
res["ratio_spread_judge_no_judge"] = round(res["cpu_spread_jobs2"] / res["cpu_spread_no_judge"], 3)
lo, hi = res["cpu_spread_min_ms"], res["cpu_spread_max_ms"]
res["stress_iters_per_sec"] = m(stress1)
res["stress_iters_per_sec_jobs2"] = m(stress2)
res["stress_us_per_iteration"] = round(1e6 / res["stress_iters_per_sec"], 1)
res["ratio_stress_floor_per_process"] = round(res["stress_us_per_iteration"] / 4 / res["floor_us"], 3)
json.dump(res, open("target/bench.json", "w"), indent=2)
f = lambda v, unit="": "skipped" if v is None else f"{v}{unit}"
print(f"| measure | median | ratio | target |")
print(f"|---|---|---|---|")
print(f"| spawn floor (pipes, wait), per run | {res['floor_us']} us | 1.00 | |")
print(f"| judge, rlimit-only, -j 1, per test | {res['judge_us_per_test']} us | {f(res['ratio_judge_floor'])} x floor | <= 1.1 |")
print(f"| (the floor on one CPU; the judge with --cpu off) | {res['floor_one_cpu_us']} / {res['judge_us_per_test_cpu_off']} us | {res['ratio_floor_one_cpu_floor']} / {res['ratio_judge_cpu_off_floor']} x floor; judge {res['ratio_judge_floor_one_cpu']} x the floor on one CPU | |")
print(f"| judge, {level}, -j 1, per test | {res['judge_sandboxed_us_per_test']} us | {f(res['ratio_sandboxed_floor'])} x floor | <= 1.5 |")
print(f"| (quartiles of the {rounds * pairs} pair ratios; medians round by round) | | {res['ratio_judge_floor_quartiles']} / {res['ratio_sandboxed_floor_quartiles']}; {res['rounds_ratio_judge_floor']} / {res['rounds_ratio_sandboxed_floor']} | |")
print(f"| judge, rlimit-only / {level}, default jobs | {res['judge_us_per_test_default_jobs']} / {res['judge_sandboxed_us_per_test_default_jobs']} us | | |")
print(f"| oj test, per test | {f(res['oj_us_per_test'], ' us')} | {f(res['ratio_oj_judge'])} x judge ({f(res['ratio_oj_judge_sandboxed'])} x sandboxed) | >= 5 |")
print(f"| DMOJ, per test | {f(res['dmoj_us_per_test'], ' us')} | {f(res['ratio_dmoj_judge_sandboxed'])} x sandboxed judge | |")
print(f"| tokens checker, equal outputs ({c['checker_mb']} MB), both files' bytes | {c['checker_gbps_equal']} GB/s ({c['checker_gbps_equal_per_answer_byte']} of the answer's) | {res['ratio_checker_equal_cmp']} x cmp ({c['cmp_gbps']} GB/s) | >= 1.5 GB/s |")
print(f"| tokens checker, whitespace differs | {c['checker_gbps_tokens']} GB/s ({c['checker_gbps_tokens_per_answer_byte']} of the answer's) | {res['ratio_checker_tokens_naive']} x naive split ({c['naive_split_gbps']} GB/s) | >= 0.8 GB/s |")
print(f"| checker process peak RSS after both | {c['checker_peak_rss_mib']} MiB | | independent of size |")
print(f"| judge peak RSS, {big_mib} MiB output ({big_verdict}) | {res['judge_peak_rss_mib_big_output']} MiB | | <= 64 |")
print(f"| CPU time spread, 300 ms x 20, -j 2 (median of {len(judge_spreads)} runs) | {res['cpu_spread_jobs2']} ({lo}-{hi} ms; runs {res['cpu_spread_jobs2_runs']}) | {res['ratio_spread_judge_no_judge']} x no judge | <= 1.10 |")
print(f"| (the same 20 runs, two at a time, with no judge: bench/spread.py) | {res['cpu_spread_no_judge']} (runs {res['cpu_spread_no_judge_runs']}) | | |")
print(f"| stress, -j 1 / -j 2 | {res['stress_iters_per_sec']} / {res['stress_iters_per_sec_jobs2']} it/s | {res['ratio_stress_floor_per_process']} x floor per process | |")
PY
note "wrote target/bench.json"

# judge verify against problemtools' verifyproblem on the same packages.
bash "$ROOT/bench/packages.sh" ${1:-}

# The per-test cost of an interactive test against a bare pipe pair.
bash "$ROOT/bench/interactive.sh" ${1:-}

# What each shipped language's trivial program costs (compile, start-up, memory).
bash "$ROOT/bench/languages.sh" ${1:-}

# The time people wait: edit to verdict with the precompiled header, a mock
# contest lazy and with --all-tests, judge verify cold and warm.
python3 "$ROOT/bench/waiting.py" "$ROOT/target/release/judge" ${1:-}

echo
if [ -n "$OJ" ]; then
  python3 "$ROOT/bench/samples.py" "$ROOT/target/release/judge" "$OJ" ${1:-}
else
  note "oj not installed: the samples-folder comparison is skipped"
fi

# judge serve under a simulated contest: submissions accepted and stored, the
# queue, throughput against batch, the scoreboard under 200 polling clients
# (wrk), the server's memory.
python3 "$ROOT/bench/serve.py" "$ROOT/target/release/judge" ${1:-}

# Judging hosts over PostgreSQL (a throwaway cluster): 1, 2 and 3 hosts
# against batch, the queue's overhead per submission.
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  python3 "$ROOT/bench/judgehosts.py" "$ROOT/target/release/judge" ${1:-}
else
  note "PostgreSQL not installed: the judging-host figures are skipped"
fi
