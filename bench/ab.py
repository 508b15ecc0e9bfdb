#!/usr/bin/env python3
"""A/B of two judge binaries against the spawn floor, run in target/bench-ws
(made by bench/run.sh). Each judge run (200 tests, -j 1, --no-cache) is divided
by the mean of the floor runs just before and after it; the two binaries
alternate, first one then the other. Also printed: the CPU time (user +
system) of each judge run and everything it started, per test, which a busy
machine disturbs less than wall time.

    cd target/bench-ws && python3 ../../bench/ab.py JUDGE_A JUDGE_B [none|strict] [PAIRS] [PROBLEM]

PROBLEM is `ab` (the default: a built-in checker) or `ab-checker` (the same
tests judged by a custom checker, a package program run per test).
"""
import resource
import statistics
import subprocess
import sys
import time

a, b = sys.argv[1], sys.argv[2]
isolation = sys.argv[3] if len(sys.argv) > 3 else "none"
pairs = int(sys.argv[4]) if len(sys.argv) > 4 else 20
problem = sys.argv[5] if len(sys.argv) > 5 else "ab"
TESTS = 200


def floor():
    out = subprocess.run(["./floor", "./ab", "testdata/ab/1.in", str(TESTS)],
                         capture_output=True, text=True, check=True).stdout
    return float(out)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def judge(binary):
    cpu = children_cpu()
    start = time.perf_counter()
    subprocess.run([binary, "--no-cache", "--isolation", isolation, "run", problem, "ab.cpp",
                    "-j", "1", "--format", "json"], stdout=subprocess.DEVNULL, check=False)
    wall = (time.perf_counter() - start) / TESTS * 1e6
    return wall, (children_cpu() - cpu) / TESTS * 1e6


ratios = {a: [], b: []}
cpus = {a: [], b: []}
before = floor()
for i in range(pairs):
    for binary in ([a, b] if i % 2 == 0 else [b, a]):
        us, cpu = judge(binary)
        after = floor()
        ratios[binary].append(us / ((before + after) / 2))
        cpus[binary].append(cpu)
        before = after
for binary, values in ratios.items():
    q = statistics.quantiles(values, n=4)
    print(f"{problem} {isolation} {binary}: median {statistics.median(values):.3f} x floor, "
          f"quartiles {q[0]:.3f}-{q[2]:.3f} ({len(values)} runs); "
          f"CPU {statistics.median(cpus[binary]):.0f} us per test")
