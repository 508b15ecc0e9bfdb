#!/usr/bin/env python3
"""The time people wait, measured (issue: edit-to-verdict, lazy contests, verify).

    python3 bench/waiting.py JUDGE [--quick]

- edit_to_verdict_cpp_ms: `judge run acwing-891 F.cpp` on a <bits/stdc++.h>
  C++ file changed before each run (a comment with a counter), median of
  ROUNDS; gxx_plain_compile_ms: plain g++ with the judge's flags on the same
  file (no precompiled header), alternated with it; their ratio. The judge is
  warmed first (tests made, precompiled header built), as in a contestant's
  loop.
- contest_lazy_s / contest_all_tests_s: `judge batch` of a generated ICPC
  contest (CONTESTANTS x the 10 classic problems, from the bundled solutions:
  AC, WA, sleepers, spinners, CE), each from an empty cache (the precompiled
  headers shared and built beforehand); contest_lazy_speedup = all / lazy;
  contest_judge_cpu_share = the judge process's own CPU (all its threads,
  from /proc, polled) against the CPU of the compiles and runs it did, in
  the lazy run: every test's CPU time in results.json plus every
  compilation's time (wall, about its CPU: compilers use one core).
- verify_cold_s / verify_warm_s: `judge verify` of every bundled package
  from an empty cache, then again.

Adds these keys to target/bench.json (creating it if missing) and writes
target/bench-waiting.json; prints a Markdown table.
"""
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JUDGE = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
ROUNDS = 5 if QUICK else 10
CONTESTANTS = 4 if QUICK else 40
WS = os.path.join(ROOT, "target", "bench-waiting")
PROBLEMS = ["acwing-891", "acwing-893", "hdu-1527", "hdu-1846", "hdu-2516",
            "hdu-3951", "luogu-p2197", "poj-2234", "poj-2484", "poj-2505"]
CXX = ["g++", "-O2", "-std=gnu++20", "-pipe", "-DONLINE_JUDGE"]


def note(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def config(path, cache, pch):
    with open(path, "w") as f:
        f.write(f'problems_dir = "{ROOT}/problems"\n'
                f'testdata_dir = "{ROOT}/testdata"\n'
                f'cache_dir = "{cache}"\n'
                f'pch_dir = "{pch}"\n')
    return path


def judge(conf, *args, check=True):
    cmd = [JUDGE, "--config", conf, "--color", "never", *args]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and done.returncode not in (0, 1):
        sys.exit(f"bench: {' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return done


def edit_to_verdict():
    source = os.path.join(WS, "edit", "nim.cpp")
    os.makedirs(os.path.dirname(source), exist_ok=True)
    conf = config(os.path.join(WS, "edit", "judge.toml"),
                  os.path.join(WS, "edit", "cache"), os.path.join(WS, "pch"))
    body = open(os.path.join(ROOT, "tests", "fixtures", "pch", "ac-bits.cpp")).read()
    with open(source, "w") as f:
        f.write(body)
    done = judge(conf, "run", "acwing-891", source)  # warm: tests, precompiled header
    if not done.stdout.rstrip().splitlines()[-1].startswith("AC"):
        sys.exit(f"bench: the warm-up run was not AC:\n{done.stdout}{done.stderr}")
    judged, plain = [], []
    for i in range(ROUNDS):
        with open(source, "w") as f:
            f.write(body + f"// edit {i} {time.time_ns()}\n")
        start = time.perf_counter()
        done = judge(conf, "run", "acwing-891", source)
        judged.append((time.perf_counter() - start) * 1000)
        if "AC" not in done.stdout:
            sys.exit(f"bench: not AC:\n{done.stdout}{done.stderr}")
        start = time.perf_counter()
        subprocess.run(CXX + ["-o", os.path.join(WS, "edit", "plain"), source], check=True)
        plain.append((time.perf_counter() - start) * 1000)
    return statistics.median(judged), statistics.median(plain)


SLEEPER = "import time\ntime.sleep(1000)\n"
SPINNER = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n"
BROKEN = "#include <bits/stdc++.h>\nint main() { std::cout << \"Yes\" << std::endl }\n"


def make_contest(directory):
    """CONTESTANTS x PROBLEMS, one submission each: 55% accepted, 25% wrong,
    4% sleepers, 4% spinners, 12% compile errors (seeded: the same contest
    every run). Half the C++ ones start with <bits/stdc++.h>, as many
    contestants' do."""
    rng = random.Random(2505)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    with open(os.path.join(directory, "contest.toml"), "w") as f:
        f.write('title = "Generated mock contest"\nscoring = "icpc"\n'
                f"problems = {json.dumps(PROBLEMS)}\n")
    mix = {}
    for c in range(CONTESTANTS):
        person = os.path.join(directory, f"contestant-{c:02}")
        os.makedirs(person)
        for problem in PROBLEMS:
            solutions = os.path.join(ROOT, "problems", problem, "solutions")
            files = sorted(os.listdir(solutions))
            roll = rng.random()
            if roll < 0.55:
                kind, pick = "AC", [f for f in files if f.startswith("accepted")]
            elif roll < 0.80:
                kind, pick = "WA", [f for f in files if f.startswith("wa-")]
            elif roll < 0.84:
                kind, pick = "sleeper", None
            elif roll < 0.88:
                kind, pick = "spinner", None
            else:
                kind, pick = "CE", None
            mix[kind] = mix.get(kind, 0) + 1
            if pick:
                chosen = rng.choice(pick)
                text = open(os.path.join(solutions, chosen)).read()
                ext = chosen.rsplit(".", 1)[1]
                if ext == "cpp" and rng.random() < 0.5:
                    text = "#include <bits/stdc++.h>\n" + text
            else:
                text, ext = {"sleeper": (SLEEPER, "py"), "spinner": (SPINNER, "c"),
                             "CE": (BROKEN, "cpp")}[kind]
            with open(os.path.join(person, f"{problem}.{ext}"), "w") as f:
                f.write(text)
    return mix


def proc_cpu(pid):
    """utime + stime of a live process (all its threads), seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def batch(contest, name, *extra):
    base = os.path.join(WS, name)
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    conf = config(os.path.join(base, "judge.toml"), os.path.join(base, "cache"),
                  os.path.join(WS, "pch"))
    cmd = [JUDGE, "--config", conf, "batch", contest, "--out", os.path.join(base, "out"),
           "--format", "json", *extra]
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    own = 0.0
    while child.poll() is None:
        try:
            own = proc_cpu(child.pid)
        except (OSError, ValueError, IndexError):
            pass
        time.sleep(0.02)
    wall = time.perf_counter() - start
    if child.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{child.stderr.read().decode()}")
    results = json.load(open(os.path.join(base, "out", "results.json")))
    work_ms = 0
    for entry in results["entries"]:
        report = entry.get("report") or {}
        compile_ = report.get("compile") or {}
        if not compile_.get("cached"):
            work_ms += compile_.get("time_ms", 0)
        work_ms += sum(t["time_ms"] for t in report.get("tests", []))
    return wall, own, work_ms / 1000, results


def standings(results):
    rows = results.get("standings") or results.get("rows") or []
    return json.dumps(rows, sort_keys=True)


def main():
    if os.path.isdir(WS):
        shutil.rmtree(WS)
    os.makedirs(WS)
    out = {"quick": QUICK, "rounds": ROUNDS, "contestants": CONTESTANTS}

    note(f"edit to verdict: {ROUNDS} edits of a <bits/stdc++.h> C++ file")
    judged, plain = edit_to_verdict()
    out["edit_to_verdict_cpp_ms"] = round(judged, 1)
    out["gxx_plain_compile_ms"] = round(plain, 1)
    out["ratio_edit_to_verdict_gxx"] = round(judged / plain, 3)

    contest = os.path.join(WS, "contest")
    mix = make_contest(contest)
    out["contest_mix"] = mix
    note(f"contest: {CONTESTANTS} x {len(PROBLEMS)} submissions {mix}, lazy")
    lazy_wall, lazy_own, lazy_total, lazy_results = batch(contest, "lazy")
    note("contest: --all-tests")
    all_wall, _, _, all_results = batch(contest, "all-tests", "--all-tests")
    out["contest_lazy_s"] = round(lazy_wall, 2)
    out["contest_all_tests_s"] = round(all_wall, 2)
    out["contest_lazy_speedup"] = round(all_wall / lazy_wall, 2)
    out["contest_judge_cpu_s"] = round(lazy_own, 2)
    out["contest_work_cpu_s"] = round(lazy_total, 2)
    out["contest_judge_cpu_share"] = round(lazy_own / lazy_total, 4) if lazy_total else None
    verdicts = lambda r: sorted((e["file"], (e.get("report") or {}).get("verdict"))
                                for e in r["entries"])
    out["contest_same_verdicts"] = verdicts(lazy_results) == verdicts(all_results)

    note("verify: every bundled package, cold then warm")
    conf = config(os.path.join(WS, "verify.toml"), os.path.join(WS, "verify-cache"),
                  os.path.join(WS, "verify-cache", "pch"))
    for key in ["verify_cold_s", "verify_warm_s"]:
        start = time.perf_counter()
        done = judge(conf, "verify", check=False)
        out[key] = round(time.perf_counter() - start, 2)
        if done.returncode != 0:
            sys.exit(f"bench: judge verify failed:\n{done.stdout[-2000:]}{done.stderr}")

    print(f"\n### The time people wait ({'quick' if QUICK else 'full'} run)\n")
    print("| measure | figure |\n|---|---|")
    print(f"| edit to verdict, C++ with <bits/stdc++.h> (median of {ROUNDS}) | "
          f"{out['edit_to_verdict_cpp_ms']} ms |")
    print(f"| plain g++, the judge's flags, same file | {out['gxx_plain_compile_ms']} ms |")
    print(f"| ratio (target at most 0.4) | {out['ratio_edit_to_verdict_gxx']} |")
    print(f"| contest {CONTESTANTS} x 10, lazy / all tests | {out['contest_lazy_s']} s / "
          f"{out['contest_all_tests_s']} s |")
    print(f"| lazy speedup (target at least 3) | {out['contest_lazy_speedup']} x |")
    print(f"| judge's own CPU share, lazy (target under 0.05) | "
          f"{out['contest_judge_cpu_share']} ({out['contest_judge_cpu_s']} of "
          f"{out['contest_work_cpu_s']} s of compiles and runs) |")
    print(f"| same verdicts lazy and all tests | {out['contest_same_verdicts']} |")
    print(f"| judge verify, every bundled package, cold / warm | {out['verify_cold_s']} s / "
          f"{out['verify_warm_s']} s |")

    json.dump(out, open(os.path.join(ROOT, "target", "bench-waiting.json"), "w"), indent=2)
    path = os.path.join(ROOT, "target", "bench.json")
    merged = json.load(open(path)) if os.path.exists(path) else {}
    merged.update({k: v for k, v in out.items() if k not in ("quick", "rounds")})
    json.dump(merged, open(path, "w"), indent=2)
    note("wrote target/bench-waiting.json and the keys in target/bench.json")


main()
