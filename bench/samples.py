#!/usr/bin/env python3
"""The contestant's loop, measured: edit to verdict on a samples folder,
`judge run` against `oj test` (online-judge-tools) on the same folder.

    python3 bench/samples.py JUDGE OJ [--quick]

The folder is made the way a contestant gets it: `judge listen` receives a
problem as Competitive Companion posts it (AtCoder ABC 096 A, its three
samples, as the extension's own test data has them) and writes it. The file
is a `<bits/stdc++.h>` C++ solution, changed before each run (a comment with
a counter), as after an edit:

- judge: `judge run FOLDER a.cpp` (compiles, with the precompiled header,
  and judges the samples in the sandbox);
- oj: `g++ -O2 -std=gnu++20 a.cpp -o a.out && oj test -c ./a.out` in the
  folder (its samples are in oj's `test/` there)
  (what `oj`'s users run: compile, then test; the same flags as the
  judge's C++, no precompiled header);

alternated round by round (which goes first alternates too), medians of
ROUNDS after a warm-up of each. Also: `oj test` alone on the built program,
and `judge run` on a file whose build is cached (an unchanged file).

Adds samples_* keys to target/bench.json (creating it if missing); prints a
Markdown table. Figures only: nothing here passes or fails.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JUDGE = os.path.abspath(sys.argv[1])
OJ = os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
ROUNDS = 5 if QUICK else 15
WS = os.path.join(ROOT, "target", "bench-samples")
CXX = ["g++", "-O2", "-std=gnu++20", "-pipe", "-DONLINE_JUDGE"]
TASK = {
    "name": "A - Day of Takahashi",
    "group": "AtCoder - AtCoder Beginner Contest 096",
    "url": "https://atcoder.jp/contests/abc096/tasks/abc096_a",
    "interactive": False,
    "memoryLimit": 256,
    "timeLimit": 2000,
    "tests": [
        {"input": "5 5\n", "output": "5\n"},
        {"input": "2 1\n", "output": "1\n"},
        {"input": "11 30\n", "output": "11\n"},
    ],
    "testType": "single",
    "input": {"type": "stdin"},
    "output": {"type": "stdout"},
    "languages": {"java": {"mainClass": "Main", "taskClass": "ADayOfTakahashi"}},
    "batch": {"id": "0b7c2a4e-5f3d-4e8a-9c1b-6d2f8e4a7c30", "size": 1},
}
SOLUTION = """#include <bits/stdc++.h>
using namespace std;
int main() {
    int a, b;
    cin >> a >> b;
    cout << (b >= a ? a : a - 1) << endl;
}
"""


def note(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def timed(cmd, cwd):
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return (time.perf_counter() - start) * 1000, done


def receive(conf):
    """The samples folder, from `judge listen` and a request like the extension's."""
    listen = subprocess.Popen(
        [JUDGE, "--config", conf, "listen", "--port", "0", "--count", "1", "--dir", WS],
        cwd=WS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = listen.stdout.readline()
    port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
    request = urllib.request.Request(
        f"http://localhost:{port}/", data=json.dumps(TASK).encode(), method="POST",
        headers={"Content-Type": "application/json",
                 "Origin": "chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200, answer.read()
    listen.wait(timeout=30)
    return os.path.join(WS, "a-day-of-takahashi")


def main():
    shutil.rmtree(WS, ignore_errors=True)
    os.makedirs(WS)
    conf = os.path.join(WS, "judge.toml")
    with open(conf, "w") as f:
        f.write(f'cache_dir = "{WS}/cache"\npch_dir = "{WS}/pch"\n')
    folder = receive(conf)
    source = os.path.join(WS, "a.cpp")
    counter = [0]

    def edit():
        counter[0] += 1
        with open(source, "w") as f:
            f.write(SOLUTION + f"// edit {counter[0]}\n")

    def judge_run():
        ms, done = timed([JUDGE, "--config", conf, "--color", "never", "run", folder, source], WS)
        if done.returncode != 0:
            sys.exit(f"judge run failed: {done.stdout.decode()}{done.stderr.decode()}")
        return ms

    def oj_test():
        # In the folder, as oj's users do: its samples are in test/ there.
        return timed([OJ, "test", "-c", os.path.join(WS, "a.out")], folder)

    def oj_loop():
        start = time.perf_counter()
        compiled = subprocess.run(CXX + [source, "-o", os.path.join(WS, "a.out")], cwd=WS)
        _, done = oj_test()
        ms = (time.perf_counter() - start) * 1000
        if compiled.returncode != 0 or done.returncode != 0:
            sys.exit(f"oj test failed: {done.stdout.decode()}{done.stderr.decode()}")
        return ms

    # Warm-up: the precompiled header, oj's first start (its imports).
    edit(); judge_run(); oj_loop()
    judge, oj, oj_only, cached = [], [], [], []
    for r in range(ROUNDS):
        order = [("judge", judge_run), ("oj", oj_loop)]
        if r % 2:
            order.reverse()
        for name, run in order:
            edit()
            (judge if name == "judge" else oj).append(run())
        oj_only.append(oj_test()[0])
        cached.append(judge_run())
    res = {
        "samples_rounds": ROUNDS,
        "samples_edit_to_verdict_ms": round(statistics.median(judge), 1),
        "samples_oj_edit_to_verdict_ms": round(statistics.median(oj), 1),
        "samples_oj_test_only_ms": round(statistics.median(oj_only), 1),
        "samples_judge_cached_build_ms": round(statistics.median(cached), 1),
    }
    res["samples_oj_over_judge"] = round(
        res["samples_oj_edit_to_verdict_ms"] / res["samples_edit_to_verdict_ms"], 2)
    res["samples_oj_test_only_over_judge_cached"] = round(
        res["samples_oj_test_only_ms"] / res["samples_judge_cached_build_ms"], 2)
    note(f"judge edit to verdict (ms): {sorted(round(x) for x in judge)}")
    note(f"oj edit to verdict (ms): {sorted(round(x) for x in oj)}")
    path = os.path.join(ROOT, "target", "bench.json")
    data = {}
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
    data.update(res)
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
    print("| samples folder (3 samples, C++ `<bits/stdc++.h>`), median of "
          f"{ROUNDS} | judge | oj | oj / judge |")
    print("|---|---:|---:|---:|")
    print(f"| edit to verdict: `judge run DIR a.cpp` / `g++ && oj test` | "
          f"{res['samples_edit_to_verdict_ms']} ms | {res['samples_oj_edit_to_verdict_ms']} ms | "
          f"{res['samples_oj_over_judge']} x |")
    print(f"| unchanged file: `judge run` (build cached) / `oj test` alone | "
          f"{res['samples_judge_cached_build_ms']} ms | {res['samples_oj_test_only_ms']} ms | "
          f"{res['samples_oj_test_only_over_judge_cached']} x |")


if __name__ == "__main__":
    main()
