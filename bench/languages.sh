#!/usr/bin/env bash
# What each shipped language costs before it does any work: `judge run` of
# its accepted acwing-891 fixture on the 2-pile sample (a "hello" that reads
# its input). Compile: the first run in an empty cache (the compiler's wall
# time as the judge reports it). Run: --no-cache, median of ROUNDS runs of
# the test's CPU time, wall time and peak memory as the judge measures them
# (sandboxed, the default level). A language whose toolchain is missing is
# listed as such. Prints a Markdown table and writes target/bench-languages.json.
#
#   bench/languages.sh           7 rounds
#   bench/languages.sh --quick   3 rounds
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=7
[ "${1:-}" = "--quick" ] && ROUNDS=3
note() { echo "bench: $*" >&2; }

cargo build --release --quiet
JUDGE=$ROOT/target/release/judge
WS=$ROOT/target/bench-languages
rm -rf "$WS"; mkdir -p "$WS"
cat > "$WS/judge.toml" <<EOF
problems_dir = "$ROOT/problems"
testdata_dir = "$ROOT/testdata"
cache_dir = "$WS/cache"
jobs = 1
EOF
F=$ROOT/tests/fixtures/submissions/acwing-891
rows=()
for entry in c:ac.c cpp:ac.cpp rust:ac.rs python:ac.py pypy:ac-pypy.py java:ac-main.java \
             kotlin:ac.kt go:ac.go javascript:ac.js csharp:ac.cs haskell:ac.hs \
             ruby:ac.rb pascal:ac.pas scala:ac.scala ocaml:ac.ml lisp:ac.lisp \
             php:ac.php prolog:ac.pl shell:ac.sh; do
  lang=${entry%%:*}; file=$F/${entry#*:}
  run() { (cd "$WS" && "$JUDGE" run acwing-891 "$file" --lang "$lang" --tests sample-1 \
             --format json "$@" 2>"$WS/err") || true; }
  first=$(run)
  if [ -z "$first" ]; then
    note "$lang: not usable here ($(head -c 200 "$WS/err"))"
    rows+=("$lang missing")
    continue
  fi
  compile=$(echo "$first" | python3 -c 'import json,sys; print(json.load(sys.stdin)["compile"]["time_ms"])')
  for i in $(seq 1 "$ROUNDS"); do run --no-cache; done > "$WS/$lang.jsonl"
  rows+=("$lang $compile $WS/$lang.jsonl")
done

python3 - "$ROUNDS" "${rows[@]}" <<'PY'
import json, statistics, sys
rounds = int(sys.argv[1])
out = {"rounds": rounds, "languages": {}}
print(f"\n### Languages: a trivial program's cost (acwing-891 sample, median of {rounds})\n")
print("| language | compile ms (cold) | run CPU ms | run wall ms | peak memory MiB |")
print("|---|---:|---:|---:|---:|")
for row in sys.argv[2:]:
    parts = row.split()
    lang = parts[0]
    if parts[1] == "missing":
        print(f"| {lang} | not installed | | | |")
        out["languages"][lang] = None
        continue
    compile_ms = int(parts[1])
    tests = [json.loads(l)["tests"][0] for l in open(parts[2]) if l.strip()]
    verdicts = {t["verdict"] for t in tests}
    cpu = statistics.median(t["time_ms"] for t in tests)
    wall = statistics.median(t["wall_ms"] for t in tests)
    mem = statistics.median(t["memory_kib"] for t in tests) / 1024
    print(f"| {lang} | {compile_ms} | {cpu:.0f} | {wall:.0f} | {mem:.1f} |"
          + ("" if verdicts == {"AC"} else f" verdicts {sorted(verdicts)}"))
    out["languages"][lang] = {"compile_ms": compile_ms, "run_cpu_ms": cpu,
                              "run_wall_ms": wall, "peak_memory_mib": round(mem, 1),
                              "verdicts": sorted(verdicts)}
json.dump(out, open("target/bench-languages.json", "w"), indent=2)
PY
note "wrote target/bench-languages.json"
