#!/usr/bin/env python3
"""Stability of verdicts on a shared machine (issue 37): figures, never pass/fail.

Programs of five kinds (ALU-bound, cache-bound pointer chase in 2 MiB,
memory-bandwidth-bound over 64 MiB, page-fault-bound, Python), each calibrated
on the quiet machine, are judged with time limits that put them at 40-60%,
80-95%, 105-125% and 200% of the limit, quiet and beside CPU hogs, memory hogs
and a second judge, several times each. Printed: verdict flips by band (against
the verdict the band calls for; "overloaded" exits, code 4, are counted apart)
and CPU-time inflation per kind and load as same-run ratios of medians against
the quiet runs.

    bench/stability.py           full run (about 10 minutes on 2 cores)
    bench/stability.py --jobs    only what `-j` does: the same tests judged
                                 with -j 1 and -j <CPUs> (in the full run too)
    bench/stability.py --quick   two kinds, two bands, two loads, once each
    STABILITY_REPS=1 bench/stability.py   the full grid, once each
"""
import json
import os
import statistics
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The release build when there is one (its own speed does not enter the
# figures: only the judged programs' CPU times and verdicts do).
JUDGE = Path(os.environ.get("JUDGE_BIN", ROOT / "target" / "release" / "judge"))
if not JUDGE.exists() and (ROOT / "target" / "debug" / "judge").exists():
    JUDGE = ROOT / "target" / "debug" / "judge"
QUICK = "--quick" in sys.argv

C_KINDS = {
    "alu": """
#include <stdio.h>
int main(void){ unsigned long x=1; for(long i=0;i<WORK*150000000L;i++) x=x*6364136223846793005UL+1442695040888963407UL;
 fprintf(stderr, "%lu\\n", x); puts("ok"); return 0; }""",
    "cache": """
#include <stdio.h>
#include <stdlib.h>
#define N (2*1024*1024/sizeof(long))
int main(void){ long *a=malloc(N*sizeof(long)); for(long i=0;i<(long)N;i++) a[i]=i;
 srand(1); for(long i=N-1;i>0;i--){ long j=rand()%i; long t=a[i]; a[i]=a[j]; a[j]=t; }
 long p=0; for(long i=0;i<WORK*30000000L;i++) p=a[p]; fprintf(stderr, "%ld\\n", p); printf("%s\\n", p>=0?"ok":"ok"); return 0; }""",
    "bandwidth": """
#include <stdio.h>
#include <stdlib.h>
#define N (64*1024*1024/sizeof(long))
int main(void){ long *a=calloc(N,sizeof(long)); long s=0;
 for(long r=0;r<WORK*30;r++) for(long i=0;i<(long)N;i+=8) { s+=a[i]; a[i]=s; }
 printf("%s\\n", s>=0?"ok":"ok"); return 0; }""",
    "pagefault": """
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
int main(void){ long s=0; for(long r=0;r<WORK*30;r++){ size_t n=32<<20; char *p=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
 for(size_t i=0;i<n;i+=4096) p[i]=1, s+=p[i]; munmap(p,n); } printf("%s\\n", s>=0?"ok":"ok"); return 0; }""",
}
PY = """
x = 0
for i in range(WORK * 1500000):
    x = (x * 31 + i) % 1000003
import sys
print(x, file=sys.stderr)
print("ok")
"""
BANDS = {"40-60%": 0.5, "80-95%": 0.88, "105-125%": 1.15, "200%": 2.0}
EXPECTED = {"40-60%": "AC", "80-95%": "AC", "105-125%": "TLE", "200%": "TLE"}


def package_of(dir: Path, tests: int) -> Path:
    """A package of `tests` identical tests (what `-j` spreads over the CPUs)."""
    pkg = dir / f"stab{tests}"
    (pkg / "data" / "secret").mkdir(parents=True, exist_ok=True)
    (pkg / "problem.yaml").write_text("name: stability\nlimits:\n  time_limit: 1\n  memory: 512\n")
    for i in range(tests):
        (pkg / "data" / "secret" / f"t{i}.in").write_text("\n")
        (pkg / "data" / "secret" / f"t{i}.ans").write_text("ok\n")
    return pkg


def judge_all(pkg: Path, prog: Path, limit_ms: int, jobs: int):
    """Every test's verdict and CPU time, the judging's wall time and re-runs."""
    started = time.monotonic()
    out = subprocess.run(
        [str(JUDGE), "--color", "never", "--no-cache", "-j", str(jobs), "run", str(pkg), str(prog),
         "--time-limit", f"{limit_ms}ms", "--format", "json"],
        capture_output=True, text=True)
    wall = time.monotonic() - started
    try:
        report = json.loads(out.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return [], wall, 0
    tests = report.get("tests", [])
    reruns = sum(max(0, len(t.get("runs", [])) - 1) for t in tests)
    return [(t.get("verdict"), t.get("time_ms")) for t in tests], wall, reruns


def jobs_campaign(tmp: Path, progs: dict, quiet_cpu: dict, reps: int):
    """What `-j` does to timing (README's "Timing on a shared machine"): the
    same tests judged one at a time and one per CPU, CPU-time ratios of
    medians in the same run, and verdicts at 80-95% of the limit."""
    cpus = os.cpu_count() or 2
    n = 2 * cpus
    pkg = package_of(tmp, n)
    print(f"\n`-j` (quiet machine, {n} identical tests per judging, {reps} judgings each):")
    print(f"| kind | CPU -j {cpus} / -j 1 | wall -j {cpus} / -j 1 | flips at 80-95% -j 1 | flips at 80-95% -j {cpus} | re-runs -j 1 / -j {cpus} |")
    print("|---|---|---|---|---|---|")
    for kind, prog in progs.items():
        cpu = {1: [], cpus: []}
        wall = {1: [], cpus: []}
        flips = {1: 0, cpus: 0}
        reruns = {1: 0, cpus: 0}
        limit = max(1, round(quiet_cpu[kind] / BANDS["80-95%"]))
        for _ in range(reps):
            for jobs in (1, cpus):
                tests, w, _ = judge_all(pkg, prog, 20000, jobs)
                cpu[jobs] += [t for v, t in tests if t is not None and v == "AC"]
                wall[jobs].append(w)
                tests, _, r = judge_all(pkg, prog, limit, jobs)
                flips[jobs] += sum(1 for v, _ in tests if v != "AC") + (n - len(tests))
                reruns[jobs] += r
        ratio = (statistics.median(cpu[cpus]) / statistics.median(cpu[1])) if cpu[1] and cpu[cpus] else float("nan")
        wratio = statistics.median(wall[cpus]) / statistics.median(wall[1])
        print(f"| {kind} | {ratio:.2f}x | {wratio:.2f}x | {flips[1]} / {n * reps} | {flips[cpus]} / {n * reps} |"
              f" {reruns[1]} / {reruns[cpus]} |")


def judge(pkg: Path, prog: Path, limit_ms: int, extra=()):
    out = subprocess.run(
        [str(JUDGE), "--color", "never", "--no-cache", *extra, "run", str(pkg), str(prog),
         "--time-limit", f"{limit_ms}ms", "--format", "json"],
        capture_output=True, text=True)
    if out.returncode == 4:
        return "overloaded", None, 1
    try:
        report = json.loads(out.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return "error:" + out.stderr.strip()[-200:], None, 0
    test = report["tests"][0] if report["tests"] else {}
    judge.last = test
    return report["verdict"], test.get("time_ms"), len(test.get("runs", [])) or 1


judge.last = {}


class Load:
    def __init__(self, name, pkg, progs):
        self.name, self.procs, self.pkg, self.progs = name, [], pkg, progs

    def __enter__(self):
        n = os.cpu_count() or 2
        if self.name == "cpu-hogs":
            self.procs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(n)]
        elif self.name == "memory-hogs":
            hog = "import array\na=array.array('q',bytes(8*(1<<25)))\nwhile True:\n  for i in range(0,len(a),64): a[i]+=1\n"
            self.procs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(n)]
        elif self.name == "second-judge":
            loop = " ".join(f"'{p}'" for p in self.progs)
            script = f"while true; do '{JUDGE}' --no-cache run '{self.pkg}' {loop} --time-limit 10s >/dev/null 2>&1; done"
            self.procs = [subprocess.Popen(["bash", "-c", script], start_new_session=True)]
        time.sleep(1 if self.procs else 0)
        return self

    def __exit__(self, *_):
        for p in self.procs:
            try:
                os.killpg(p.pid, 9) if self.name == "second-judge" else p.kill()
            except ProcessLookupError:
                pass
            p.wait()


def main():
    # A `timeout` or Ctrl-C ends the run through the loads' __exit__: a
    # second judge's loop must not outlive the benchmark (one did, for an hour).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not JUDGE.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    kinds = ["alu", "cache"] if QUICK else ["alu", "cache", "bandwidth", "pagefault", "python"]
    bands = ["40-60%", "200%"] if QUICK else list(BANDS)
    loads = ["quiet", "cpu-hogs"] if QUICK else ["quiet", "cpu-hogs", "memory-hogs", "second-judge"]
    reps = 1 if QUICK else int(os.environ.get("STABILITY_REPS", "3"))
    with tempfile.TemporaryDirectory(prefix="judge-stability-") as tmp:
        tmp = Path(tmp)
        pkg = package_of(tmp, 1)
        progs = {}
        for kind in kinds:
            work = 1 if QUICK else 2
            src = PY if kind == "python" else C_KINDS[kind]
            path = tmp / (f"{kind}.py" if kind == "python" else f"{kind}.c")
            path.write_text(src.replace("WORK", str(work)))
            progs[kind] = path
        # Quiet calibration: median CPU time under a generous limit.
        quiet_cpu = {}
        for kind, prog in progs.items():
            times = [judge(pkg, prog, 20000)[1] for _ in range(3)]
            quiet_cpu[kind] = statistics.median(t for t in times if t is not None)
        if "--jobs" in sys.argv:
            jobs_campaign(tmp, progs, quiet_cpu, reps)
            return
        flips = {(l, b): [0, 0, 0] for l in loads for b in bands}  # flips, overloaded, total
        cpu = {(l, k): [] for l in loads for k in kinds}
        reruns = 0
        flipped = []  # every flip, to say which kind and how
        for load in loads:
            with Load(load, pkg, list(progs.values())):
                for _ in range(reps):
                    for kind, prog in progs.items():
                        for band in bands:
                            limit = max(1, round(quiet_cpu[kind] / BANDS[band]))
                            verdict, t, runs = judge(pkg, prog, limit)
                            reruns += runs - 1
                            f = flips[(load, band)]
                            f[2] += 1
                            if verdict == "overloaded":
                                f[1] += 1
                            elif verdict != EXPECTED[band]:
                                f[0] += 1
                                last = judge.last if verdict in ("AC", "TLE", "WA", "RE", "MLE") else {}
                                cpus = [r.get("cpu_ms") for r in last.get("runs", [])]
                                flipped.append(f"{load} {kind} {band} (limit {limit} ms): {verdict[:200]}, "
                                               f"CPU {t} ms, runs {cpus}, contended {last.get('contended', False)}, "
                                               f"slowdown {last.get('slowdown')}")
                            if t is not None and verdict == "AC":
                                cpu[(load, kind)].append(t)
                        # The same program, unlimited: its CPU time under this load.
                        t = judge(pkg, prog, 20000)[1]
                        if t is not None:
                            cpu[(load, kind)].append(t)
        print(f"quiet CPU times (ms): " + ", ".join(f"{k} {v:.0f}" for k, v in quiet_cpu.items()))
        print("\n| load | " + " | ".join(bands) + " |")
        print("|---|" + "---|" * len(bands))
        for load in loads:
            cells = [f"{flips[(load, b)][0]} flips, {flips[(load, b)][1]} overloaded / {flips[(load, b)][2]}" for b in bands]
            print(f"| {load} | " + " | ".join(cells) + " |")
        print("\nCPU-time inflation (median under load / median quiet, same run):")
        print("| kind | " + " | ".join(loads) + " |")
        print("|---|" + "---|" * len(loads))
        for kind in kinds:
            base = statistics.median(cpu[("quiet", kind)]) if cpu[("quiet", kind)] else None
            cells = []
            for load in loads:
                xs = cpu[(load, kind)]
                cells.append(f"{statistics.median(xs) / base:.2f}x" if xs and base else "-")
            print(f"| {kind} | " + " | ".join(cells) + " |")
        print(f"\nnear-limit re-runs (judged again alone): {reruns}")
        print("\nflips, each:" if flipped else "\nno flips")
        for line in flipped:
            print(f"- {line}")
        if not QUICK:
            jobs_campaign(tmp, progs, quiet_cpu, reps)


if __name__ == "__main__":
    main()
