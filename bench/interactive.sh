#!/usr/bin/env bash
# The per-test cost of an interactive test: `judge run` on play-nim with the
# accepted C++ player (--no-cache, -j 1; per test = (wall for TESTS tests -
# wall for one) / (TESTS - 1), so the judge's start-up is not counted),
# sandboxed (the default level) and rlimit-only (`--isolation none`),
# against bench/pipe_pair.rs, the same two binaries connected by a bare
# pipe pair with nothing else, alternated round by round. Two tests: a
# short one (the sample: 2 games, a few lines) and a long one (the `max`
# test: 100 games of 10 piles, thousands of lines each way).
# Prints a Markdown table and writes target/bench-interactive.json.
#
#   bench/interactive.sh           5 rounds of 40 tests
#   bench/interactive.sh --quick   2 rounds of 20 tests
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=5; TESTS=40
[ "${1:-}" = "--quick" ] && { ROUNDS=2; TESTS=20; }
note() { echo "bench: $*" >&2; }

cargo build --release --quiet
JUDGE=$ROOT/target/release/judge
WS=$ROOT/target/bench-interactive
rm -rf "$WS"; mkdir -p "$WS"
rustc -O --edition 2021 -o "$WS/pipe_pair" bench/pipe_pair.rs
rustc -O --edition 2021 -o "$WS/interactor" problems/play-nim/interactor.rs
g++ -O2 -o "$WS/player" problems/play-nim/solutions/accepted.cpp
# Two problems of TESTS copies each of one test, the interactor as a ready
# executable (judge runs the same binary the floor runs).
listing=$("$JUDGE" gen play-nim --out "$WS/all")
for kind in short long; do
  case $kind in
    short) src=$WS/all/$(echo "$listing" | awk '$2 == "sample-1" {print $1}') ;;
    long) src=$WS/all/$(echo "$listing" | awk '$2 == "max-1" {print $1}') ;;
  esac
  mkdir -p "$WS/$kind/testdata"
  for i in $(seq 1 $TESTS); do cp "$src" "$WS/$kind/testdata/t$i.in"; done
  cp "$src" "$WS/$kind.in"
  mkdir -p "$WS/$kind-one/testdata"
  cp "$src" "$WS/$kind-one/testdata/t1.in"
  # A package names only its own files: the interactor goes inside it.
  cp "$WS/interactor" "$WS/$kind/interactor"
  cp "$WS/interactor" "$WS/$kind-one/interactor"
  cat > "$WS/$kind/problem.toml" <<TOML
id = "$kind"
title = "play-nim, one test $TESTS times"
time_limit = "2s"
memory_limit = "64MiB"
[interactor]
source = "interactor"
lang = "executable"
[[tests]]
group = "all"
load = ["t*"]
TOML
  sed "s/^id = .*/id = \"$kind-one\"/" "$WS/$kind/problem.toml" > "$WS/$kind-one/problem.toml"
done
printf 'cache_dir = "%s/cache"\n' "$WS" > "$WS/judge.toml"
J=("$JUDGE" --config "$WS/judge.toml")
for kind in short long; do "${J[@]}" run "$WS/$kind" "$WS/player" --format json >/dev/null; done

now() { python3 -c 'import time; print(time.monotonic())'; }
wall() { # COMMAND...: seconds
  local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
  python3 -c "print($t1 - $t0)"
}
per_test() { # KIND ISOLATION: (wall of TESTS tests - wall of one) / (TESTS - 1), us
  local many one
  many=$(wall "${J[@]}" --isolation "$2" --no-cache -j 1 run "$WS/$1" "$WS/player" --format json)
  one=$(wall "${J[@]}" --isolation "$2" --no-cache -j 1 run "$WS/$1-one" "$WS/player" --format json)
  python3 -c "print(f'{($many - $one) * 1e6 / ($TESTS - 1):.1f}')"
}
declare -A FLOOR JUDGED PLAIN
for r in $(seq 1 $ROUNDS); do
  for kind in short long; do
    FLOOR[$kind]+="$("$WS/pipe_pair" "$WS/player" "$WS/interactor" "$WS/$kind.in" $TESTS) "
    JUDGED[$kind]+="$(per_test "$kind" auto) "
    PLAIN[$kind]+="$(per_test "$kind" none) "
  done
  note "round $r/$ROUNDS: floor / sandboxed / rlimit-only, short: ${FLOOR[short]}/ ${JUDGED[short]}/ ${PLAIN[short]}; long: ${FLOOR[long]}/ ${JUDGED[long]}/ ${PLAIN[long]}"
done
verdict=$("${J[@]}" --no-cache run "$WS/long" "$WS/player" --format json | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["verdict"])')
python3 - "${FLOOR[short]}" "${JUDGED[short]}" "${PLAIN[short]}" "${FLOOR[long]}" "${JUDGED[long]}" "${PLAIN[long]}" "$verdict" "$(wc -l < "$WS/long.in")" <<'PY'
import json, statistics, sys
fs, js, ps, fl, jl, pl, verdict, games = sys.argv[1:9]
nums = lambda a: list(map(float, a.split()))
res = {"verdict": verdict}
print("| interactive test | pipe pair (floor) | judge, sandboxed | judge, rlimit-only | ratios | target |")
print("|---|---|---|---|---|---|")
for name, f, j, p in [("short (sample, 2 games)", fs, js, ps), (f"long (max, {int(games) - 1} games)", fl, jl, pl)]:
    f, j, p = nums(f), nums(j), nums(p)
    ratio = statistics.median(b / a for a, b in zip(f, j))
    plain = statistics.median(b / a for a, b in zip(f, p))
    key = name.split()[0]
    res[key] = {"floor_us": statistics.median(f), "judge_us": statistics.median(j),
                "judge_rlimit_only_us": statistics.median(p),
                "ratio": round(ratio, 3), "ratio_rlimit_only": round(plain, 3)}
    print(f"| {name} | {statistics.median(f):.0f} us | {statistics.median(j):.0f} us | {statistics.median(p):.0f} us | {ratio:.2f} / {plain:.2f} x | <= 1.5 |")
json.dump(res, open("target/bench-interactive.json", "w"), indent=2)
PY
note "wrote target/bench-interactive.json (the long test's verdict: $verdict)"
