#!/bin/bash
# docs/ci.md's GitHub Actions workflow, step by step, as a runner runs it: a
# user that is not root, with sudo (as GitHub's `runner`), in a service
# cgroup of a cgroup-v2 machine. Run in the test VM by guest.sh as judgeci
# (REPO: the repository). The matrix's three parts run one after the other;
# then the merge job, and what the docs promise of it. Exits non-zero at the
# first step that does not do what the docs say.
set -euo pipefail
step() { echo "-- $*"; }
fail() { echo "ci-workflow: FAILED: $*" >&2; exit 1; }

# "Install judge": the built binary on the PATH.
mkdir -p "$HOME/bin"
cp "$REPO/target/debug/judge" "$HOME/bin/judge"
export PATH="$HOME/bin:$PATH"
work=$(mktemp -d)
cd "$work"
# "actions/checkout": a solutions repository with one problem (Python
# programs) and a contest folder of three contestants.
mkdir -p problems testdata submissions/alice submissions/bob submissions/carol
cp -r "$REPO/tests/fixtures/problems/mini-nim" problems/
mv problems/mini-nim/testdata testdata/mini-nim
cp "$REPO/judge.toml" .
# Time limits that hold under emulation (the only change: speed).
sed -i 's/^time_limit = .*/time_limit = "10s"/' problems/mini-nim/problem.toml
cp problems/mini-nim/solutions/accepted.py submissions/alice/mini-nim.py
cp problems/mini-nim/solutions/wa-sum.py submissions/bob/mini-nim.py
printf 'print("Yes")\n' >submissions/carol/mini-nim.py
printf 'title = "CI"\nscoring = "icpc"\npenalty = 20\nproblems = ["mini-nim"]\n' >submissions/contest.toml

for part in 1 2 3; do
  step "part $part: verify the packages (this part)"
  sudo env PATH="$PATH" judge --isolation strict verify --partition "slice:$part/3" --format junit \
    >"verify-$part.xml" 2>verify.err || fail "verify part $part exited $?: $(cat verify.err verify-$part.xml)"
  grep -q "<testsuites" "verify-$part.xml" || fail "verify-$part.xml is not JUnit"
  step "part $part: judge the submissions (this part)"
  code=0
  sudo env PATH="$PATH" judge --isolation strict batch submissions --out "part-$part" \
    --partition "slice:$part/3" 2>batch.err || code=$?
  [ "$code" = 0 ] || fail "batch part $part exited $code: $(cat batch.err)"
  step "part $part: the cache and the outputs are the runner's, not root's (actions/cache)"
  owned=$(find .judge-cache "part-$part" -user root | head -5)
  [ -z "$owned" ] || fail "root-owned files left: $owned"
  tar -cf "cache-$part.tar" .judge-cache || fail "the runner cannot read the cache"
done

step "merge: every part"
judge merge part-*/results.json --out results >/dev/null || fail "merge exited $?"
for f in results.json scoreboard.txt scoreboard.html junit.xml; do
  [ -s "results/$f" ] || fail "results/$f missing"
done
entries=$(python3 -c 'import json; print(len(json.load(open("results/results.json"))["entries"]))')
[ "$entries" = 3 ] || fail "the merged results hold $entries entries, not 3"
step "merge: a part missing is refused, naming it"
code=0
judge merge part-1/results.json part-3/results.json --out partial 2>merge.err >/dev/null || code=$?
[ "$code" = 2 ] && grep -q "slice:2/3 missing" merge.err || fail "an incomplete merge gave $code: $(cat merge.err)"
step "merge: --allow-partial publishes a scoreboard marked partial"
judge merge part-1/results.json part-3/results.json --out partial --allow-partial >/dev/null 2>&1 \
  || fail "merge --allow-partial exited $?"
grep -q "PARTIAL" partial/scoreboard.txt || fail "the partial scoreboard does not say so"
echo "ci-workflow: every step as docs/ci.md says"
