#!/usr/bin/env python3
"""A/B of two judge binaries against the spawn floor, run in target/bench-ws
(made by bench/run.sh). Each judge run (200 tests, -j 1, --no-cache) is divided
by the mean of the floor runs just before and after it; the two binaries
alternate, first one then the other.

    cd target/bench-ws && python3 ../../bench/ab.py JUDGE_A JUDGE_B [none|strict] [PAIRS]
"""
import statistics
import subprocess
import sys
import time

a, b = sys.argv[1], sys.argv[2]
isolation = sys.argv[3] if len(sys.argv) > 3 else "none"
pairs = int(sys.argv[4]) if len(sys.argv) > 4 else 20
TESTS = 200


def floor():
    out = subprocess.run(["./floor", "./ab", "testdata/ab/1.in", str(TESTS)],
                         capture_output=True, text=True, check=True).stdout
    return float(out)


def judge(binary):
    start = time.perf_counter()
    subprocess.run([binary, "--no-cache", "--isolation", isolation, "run", "ab", "ab.cpp",
                    "-j", "1", "--format", "json"], stdout=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) / TESTS * 1e6


ratios = {a: [], b: []}
before = floor()
for i in range(pairs):
    for binary in ([a, b] if i % 2 == 0 else [b, a]):
        us = judge(binary)
        after = floor()
        ratios[binary].append(us / ((before + after) / 2))
        before = after
for binary, values in ratios.items():
    q = statistics.quantiles(values, n=4)
    print(f"{isolation} {binary}: median {statistics.median(values):.3f} x floor, "
          f"quartiles {q[0]:.3f}-{q[2]:.3f} ({len(values)} runs)")
