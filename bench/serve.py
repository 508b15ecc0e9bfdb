#!/usr/bin/env python3
"""judge serve under a simulated contest: figures, never pass/fail.

    python3 bench/serve.py JUDGE [--quick]

1. 100 teams (30 with --quick) submit 3 files each (C and Python, accepted
   and wrong) at once through the Contest API over loopback, one client
   thread per team: how long a submission takes to be accepted and stored
   (p50/p99 of the POST), how long it waits in the queue (judgement start
   minus submission time), and the judging throughput (submissions judged
   per second, from the first POST to the last judgement).
2. The same submissions (another run tag, so no build is reused) judged by
   `judge batch` with the same --jobs: its throughput, against the server's
   (target: within 5%).
3. 200 clients polling the scoreboard (wrk, 10 s; 5 s with --quick), idle
   and while every submission is being rejudged: p50/p99 (target p99 under
   20 ms).
4. The server's peak memory (VmHWM of the `judge serve` process, not the
   programs it judges; target under 100 MiB).
Writes target/bench-serve.json and prints a Markdown table.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from common import ACCEPTED_PY, ROOT, config, files_of, pct, request, write_contest, zip_b64

JUDGE = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
WS = os.path.join(ROOT, "target", "bench-serve")
TEAMS = 30 if QUICK else 100
WRK_SECONDS = 5 if QUICK else 10
JOBS = 2


def note(*a):
    print("bench serve:", *a, file=sys.stderr, flush=True)


def parse_time(text):
    # 2026-11-25T17:04:13.107+00:00
    from datetime import datetime
    return datetime.fromisoformat(text).timestamp()


def start_server(cfg, contest_dir):
    proc = subprocess.Popen(
        [JUDGE, "--config", cfg, "-j", str(JOBS), "--no-cache", "serve", contest_dir, "--listen", "127.0.0.1:0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=ROOT)
    base = None
    for line in proc.stderr:
        m = re.search(r" at (http://[0-9.:]+)/", line)
        if m:
            base = m.group(1)
            break
    if base is None:
        raise SystemExit("bench serve: judge serve did not start")
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, base


def vm_field_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def vm_hwm_kib(pid):
    return vm_field_kib(pid, "VmHWM")


def vm_rss_kib(pid):
    return vm_field_kib(pid, "VmRSS")


POLL_SCRIPT = os.path.join(WS, "poll.lua")


def wrk(url, seconds, poll=False):
    """200 connections: back to back, or each polling once a second."""
    args = ["wrk", "-t2", "-c200", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    if poll:
        with open(POLL_SCRIPT, "w") as f:
            # wrk waits delay() ms before each connection's next request:
            # 0.5-1.5 s, so the 200 clients do not poll in step.
            f.write("function delay()\n  return math.random(500, 1500)\nend\n")
        args += ["-s", POLL_SCRIPT]
    out = subprocess.run(args + [url], capture_output=True, text=True).stdout
    lat = {}
    for p in ("50%", "99%"):
        m = re.search(rf"^\s*{re.escape(p)}\s+([0-9.]+)(us|ms|s)\s*$", out, re.M)
        if m:
            v, unit = float(m.group(1)), m.group(2)
            lat[p] = v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"p50_ms": lat.get("50%"), "p99_ms": lat.get("99%"),
            "requests_per_s": float(rps.group(1)) if rps else None,
            "non_2xx": int(errors.group(1)) if errors else 0}


def main():
    if not shutil.which("wrk"):
        note("wrk is missing (apt-get install wrk): the polling figures are skipped")
    shutil.rmtree(WS, ignore_errors=True)
    os.makedirs(WS)
    cfg = config(WS)
    res = {"teams": TEAMS, "submissions": TEAMS * 3, "jobs": JOBS}

    # 2 first, batch: a warm-up prepares the problem (shared build cache).
    batch_dir = os.path.join(WS, "batch")
    write_contest(batch_dir, TEAMS, -60)
    os.makedirs(os.path.join(batch_dir, "warm"))
    with open(os.path.join(batch_dir, "warm", "mini-nim.py"), "w") as f:
        f.write("# warm\n" + ACCEPTED_PY)
    subprocess.run([JUDGE, "--config", cfg, "-j", str(JOBS), "batch", batch_dir, "--out", os.path.join(WS, "out0")],
                   check=True, capture_output=True, cwd=ROOT)
    shutil.rmtree(os.path.join(batch_dir, "warm"))
    for t in range(TEAMS):
        d = os.path.join(batch_dir, f"team{t}")
        os.makedirs(d)
        for i, (name, _, text) in enumerate(files_of(t, "batch")):
            ext = name.rsplit(".", 1)[1]
            attempt = "" if i == 0 else f".{i + 1}"
            with open(os.path.join(d, f"mini-nim{attempt}.{ext}"), "w") as f:
                f.write(text)
    t0 = time.monotonic()
    subprocess.run([JUDGE, "--config", cfg, "-j", str(JOBS), "--no-cache", "batch", batch_dir, "--out", os.path.join(WS, "out1")],
                   check=True, capture_output=True, cwd=ROOT)
    batch_s = time.monotonic() - t0
    res["batch_seconds"] = round(batch_s, 2)
    res["batch_submissions_per_s"] = round(TEAMS * 3 / batch_s, 2)
    note(f"batch: {TEAMS * 3} submissions in {batch_s:.1f} s")

    # 1, the server.
    live_dir = os.path.join(WS, "live")
    write_contest(live_dir, TEAMS, -60)
    proc, base = start_server(cfg, live_dir)
    api = f"{base}/api/contests/bench"
    latencies, ids, errors, logins = [], [], [], []
    lock = threading.Lock()
    barrier = threading.Barrier(TEAMS)

    def team(t):
        # A team's client is logged in before the burst (its first request
        # checks the password: Argon2, timed apart).
        s = time.monotonic()
        request(f"{api}/problems", f"team{t}:pw{t}")
        with lock:
            logins.append((time.monotonic() - s) * 1000)
        barrier.wait()
        for name, lang, text in files_of(t, "serve"):
            body = json.dumps({"problem_id": "mini-nim", "language_id": lang,
                               "files": [{"data": zip_b64(name, text)}]}).encode()
            s = time.monotonic()
            status, reply = request(f"{api}/submissions", f"team{t}:pw{t}", body)
            e = time.monotonic() - s
            with lock:
                if status == 201:
                    latencies.append(e * 1000)
                    ids.append(json.loads(reply)["id"])
                else:
                    errors.append((status, reply[:200]))

    threads = [threading.Thread(target=team, args=(t,)) for t in range(TEAMS)]
    for th in threads:
        th.start()
    while len(logins) < TEAMS:
        time.sleep(0.01)
    first = time.time()
    for th in threads:
        th.join()
    res["first_login_p50_ms"] = round(pct(logins, 50), 1)
    res["first_login_p99_ms"] = round(pct(logins, 99), 1)
    if errors:
        note(f"{len(errors)} submissions refused, e.g. {errors[0]}")
    res["submit_p50_ms"] = round(pct(latencies, 50), 1)
    res["submit_p99_ms"] = round(pct(latencies, 99), 1)
    # Wait for every judgement.
    while True:
        status, body = request(f"{api}/judgements", "jury:jury")
        js = json.loads(body)
        done = [j for j in js if j.get("judgement_type_id")]
        if len(done) >= len(ids):
            break
        time.sleep(0.5)
    subs = {s["id"]: s for s in json.loads(request(f"{api}/submissions", "jury:jury")[1])}
    waits = [(parse_time(j["start_time"]) - parse_time(subs[j["submission_id"]]["time"])) * 1000 for j in done]
    last_end = max(parse_time(j["end_time"]) for j in done)
    serve_s = last_end - first
    res["serve_seconds"] = round(serve_s, 2)
    res["serve_submissions_per_s"] = round(len(ids) / serve_s, 2)
    res["ratio_serve_batch_throughput"] = round(res["serve_submissions_per_s"] / res["batch_submissions_per_s"], 3)
    res["queue_wait_p50_ms"] = round(pct(waits, 50), 1)
    res["queue_wait_p99_ms"] = round(pct(waits, 99), 1)
    verdicts = {}
    for j in done:
        verdicts[j["judgement_type_id"]] = verdicts.get(j["judgement_type_id"], 0) + 1
    res["verdicts"] = verdicts
    note(f"serve: {len(ids)} submissions judged in {serve_s:.1f} s, verdicts {verdicts}")

    res["rss_after_judging_mib"] = round(vm_rss_kib(proc.pid) / 1024, 1)
    res["hwm_after_judging_mib"] = round(vm_hwm_kib(proc.pid) / 1024, 1)
    # 3, polling: 200 clients each once a second, and back to back (the
    # most the server answers); idle, then during a rejudge of everything.
    if shutil.which("wrk"):
        res["scoreboard_polling_idle"] = wrk(f"{api}/scoreboard", WRK_SECONDS, poll=True)
        res["scoreboard_idle"] = wrk(f"{api}/scoreboard", WRK_SECONDS)
        res["scoreboard_page_polling_idle"] = wrk(f"{base}/scoreboard", WRK_SECONDS, poll=True)
        cookie = None
        # The jury rejudges the problem through its page.
        opener = urllib.request.build_opener()
        login = urllib.request.Request(f"{base}/login", data=b"login=jury&password=jury", method="POST")

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(login)
        except urllib.error.HTTPError as e:
            cookie = e.headers.get("Set-Cookie", "").split(";")[0]
        page = urllib.request.urlopen(urllib.request.Request(f"{base}/jury", headers={"Cookie": cookie})).read().decode()
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        try:
            opener.open(urllib.request.Request(f"{base}/jury/rejudge", data=f"csrf={csrf}&problem=mini-nim".encode(),
                                               headers={"Cookie": cookie, "Origin": base}, method="POST"))
        except urllib.error.HTTPError:
            pass
        time.sleep(0.5)
        res["scoreboard_polling_while_judging"] = wrk(f"{api}/scoreboard", WRK_SECONDS, poll=True)
    res["server_peak_rss_mib"] = round(vm_hwm_kib(proc.pid) / 1024, 1)
    proc.terminate()
    proc.wait(timeout=30)

    with open(os.path.join(ROOT, "target", "bench-serve.json"), "w") as f:
        json.dump(res, f, indent=2)
    g = lambda d, k: "skipped" if d is None or d.get(k) is None else f"{d[k]:.2f} ms"
    poll, busy = res.get("scoreboard_polling_idle"), res.get("scoreboard_polling_while_judging")
    idle, page = res.get("scoreboard_idle"), res.get("scoreboard_page_polling_idle")
    print("| judge serve | figure | target |")
    print("|---|---|---|")
    print(f"| a team's first request (its password checked: Argon2), {TEAMS} at once, p50 / p99 | {res['first_login_p50_ms']} / {res['first_login_p99_ms']} ms | |")
    print(f"| submission accepted and stored (POST), {TEAMS} teams at once, p50 / p99 | {res['submit_p50_ms']} / {res['submit_p99_ms']} ms | |")
    print(f"| queue wait (judging start - submission), p50 / p99 | {res['queue_wait_p50_ms']} / {res['queue_wait_p99_ms']} ms | |")
    print(f"| judging throughput, {res['submissions']} submissions, -j {JOBS}: serve / batch | {res['serve_submissions_per_s']} / {res['batch_submissions_per_s']} per s ({res['serve_seconds']} / {res['batch_seconds']} s) | {res['ratio_serve_batch_throughput']} x batch (>= 0.95) |")
    print(f"| scoreboard API, 200 clients polling once a second, idle: p50 / p99 | {g(poll, 'p50_ms')} / {g(poll, 'p99_ms')} | p99 < 20 ms |")
    print(f"| the same during a rejudge of every submission | {g(busy, 'p50_ms')} / {g(busy, 'p99_ms')} | p99 < 20 ms |")
    print(f"| scoreboard page (HTML), 200 clients polling once a second: p50 / p99 | {g(page, 'p50_ms')} / {g(page, 'p99_ms')} | |")
    print(f"| scoreboard API, 200 connections back to back (saturation): req/s, p99 | {idle and idle['requests_per_s']} req/s, {g(idle, 'p99_ms')} | |")
    print(f"| server memory after judging (RSS) / peak (VmHWM), without the judged programs | {res['rss_after_judging_mib']} / {res['server_peak_rss_mib']} MiB | < 100 MiB |")
    note("wrote target/bench-serve.json")


if __name__ == "__main__":
    main()
