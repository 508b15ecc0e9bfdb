#!/usr/bin/env python3
"""Judging hosts over PostgreSQL: figures, never pass/fail.

    python3 bench/judgehosts.py JUDGE [--quick]

Starts a throwaway PostgreSQL cluster (initdb in a temporary folder, a Unix
socket only; as the user `postgres` when run as root), then for 1, 2 and 3
judging hosts (`judge judgehost -j 1` each, on this machine) beside a server
that only serves (`judge serve --no-judging`):
1. all submissions (mini-nim: C accepted, Python wrong, Python accepted;
   90, 36 with --quick) are posted through the Contest API before the
   hosts start; the hosts are started and the clock runs from when the
   last says it judges the queue to the last judgement's end: throughput;
2. the same files judged by `judge batch -j N` (N = the hosts' slots):
   its throughput, and the ratio;
3. the queue's overhead per submission: what each host reports when it
   stops (the time of a judgement's claim transaction plus its outcome's,
   measured in the host), p50/p99/mean (target: under 5 ms); and, with one
   host, (hosts' time - batch's time) / submissions.
Writes target/bench-judgehosts.json and prints a Markdown table.
"""
import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time

from common import ACCEPTED_PY, ROOT, config, files_of, request, write_contest, zip_b64

JUDGE = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
WS = os.path.join(ROOT, "target", "bench-judgehosts")
TEAMS = 12 if QUICK else 30
HOSTS = [1, 2, 3]


def note(*a):
    print("bench judgehosts:", *a, file=sys.stderr, flush=True)


class Postgres:
    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(p.split("/")[4]))
        if not bins:
            raise SystemExit("bench judgehosts: PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = os.path.dirname(bins[-1])
        self.dir = tempfile.mkdtemp(prefix="judge-bench-pg-", dir="/tmp")
        self.user = None
        if os.getuid() == 0:
            self.user = pwd.getpwnam("postgres")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.run("initdb", "-D", f"{self.dir}/data", "-U", "judge", "--auth=trust", "-E", "UTF8")
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-o",
                 f"-c listen_addresses='' -k {self.dir} -c max_connections=200", "start")

    def run(self, program, *args):
        def demote():
            if self.user:
                os.setgid(self.user.pw_gid)
                os.setuid(self.user.pw_uid)
        return subprocess.run([os.path.join(self.bin, program), *args], check=True,
                              capture_output=True, text=True, preexec_fn=demote, cwd=self.dir).stdout

    def sql(self, db, sql):
        return self.run("psql", "-h", self.dir, "-U", "judge", "-d", db, "-X", "-A", "-t", "-q", "-c", sql)

    def create(self, name):
        self.sql("postgres", f"CREATE DATABASE {name}")
        return f"postgres://judge@localhost/{name}?host={self.dir}"

    def stop(self):
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_line(proc, pattern, what):
    for line in proc.stderr:
        m = re.search(pattern, line)
        if m:
            return m
    raise SystemExit(f"bench judgehosts: {what} did not start")


def drain(proc, keep=None):
    import threading

    def read():
        for line in proc.stderr:
            if keep is not None:
                keep.append(line)
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def batch(cfg, jobs, tag):
    d = os.path.join(WS, f"batch-{tag}")
    write_contest(d, TEAMS, -60)
    for t in range(TEAMS):
        td = os.path.join(d, f"team{t}")
        os.makedirs(td)
        for i, (name, _, text) in enumerate(files_of(t, tag)):
            ext = name.rsplit(".", 1)[1]
            attempt = "" if i == 0 else f".{i + 1}"
            with open(os.path.join(td, f"mini-nim{attempt}.{ext}"), "w") as f:
                f.write(text)
    t0 = time.monotonic()
    subprocess.run([JUDGE, "--config", cfg, "-j", str(jobs), "--no-cache", "batch", d, "--out", d + "-out"],
                   check=True, capture_output=True, cwd=ROOT)
    return time.monotonic() - t0


def hosts_run(cfg, pg, n, tag):
    url = pg.create(f"bench{n}")
    d = os.path.join(WS, f"live-{n}")
    write_contest(d, TEAMS, -60)
    server = subprocess.Popen([JUDGE, "--config", cfg, "-j", "1", "serve", d, "--db", url, "--no-judging",
                               "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              text=True, cwd=ROOT)
    base = wait_line(server, r" at (http://[0-9.:]+)/", "judge serve").group(1)
    drain(server)
    api = f"{base}/api/contests/bench"
    ids = []
    for t in range(TEAMS):
        for name, lang, text in files_of(t, tag):
            body = json.dumps({"problem_id": "mini-nim", "language_id": lang,
                               "files": [{"data": zip_b64(name, text)}]}).encode()
            status, reply = request(f"{api}/submissions", f"team{t}:pw{t}", body)
            if status != 201:
                raise SystemExit(f"bench judgehosts: a submission was refused: {status} {reply[:200]}")
            ids.append(json.loads(reply)["id"])
    hosts = []
    for h in range(n):
        p = subprocess.Popen([JUDGE, "--config", cfg, "-j", "1", "--no-cache", "judgehost", d, "--db", url,
                              "--name", f"h{h + 1}"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             text=True, cwd=ROOT)
        hosts.append(p)
    said = [[] for _ in hosts]
    readers = []
    for p, keep in zip(hosts, said):
        wait_line(p, "judging the queue", "judge judgehost")
        readers.append(drain(p, keep))
    ready = time.time() * 1000
    while True:
        left = int(pg.sql(f"bench{n}", "SELECT count(*) FROM judgements WHERE state <> 'done'").strip())
        if left == 0:
            break
        time.sleep(0.2)
    rows = [line.split("|") for line in pg.sql(
        f"bench{n}", "SELECT judged_by, start_ms, end_ms, verdict FROM judgements ORDER BY start_ms").split()]
    for p in hosts + [server]:
        p.terminate()
        p.wait()
    for t in readers:
        t.join(timeout=10)
    queue = []
    for keep in said:
        for line in keep:
            m = re.search(r"queue: (\d+) judgements; .* p50 ([0-9.]+) ms, p99 ([0-9.]+) ms, mean ([0-9.]+) ms", line)
            if m:
                queue.append({"judgements": int(m.group(1)), "p50_ms": float(m.group(2)),
                              "p99_ms": float(m.group(3)), "mean_ms": float(m.group(4))})
    first_start = min(int(r[1]) for r in rows)
    last_end = max(int(r[2]) for r in rows)
    # Judging began before the last host was ready (the first ones start
    # as soon as they are): measure from the first claim.
    seconds = (last_end - min(first_start, ready)) / 1000
    verdicts = {}
    for r in rows:
        verdicts[r[3]] = verdicts.get(r[3], 0) + 1
    per_host = {}
    for r in rows:
        per_host[r[0]] = per_host.get(r[0], 0) + 1
    return seconds, len(ids), verdicts, queue, per_host


def main():
    shutil.rmtree(WS, ignore_errors=True)
    os.makedirs(WS)
    cfg = config(WS)
    # A warm-up: the problem made ready once (shared build cache).
    warm = os.path.join(WS, "warm")
    write_contest(warm, TEAMS, -60)
    os.makedirs(os.path.join(warm, "w"))
    with open(os.path.join(warm, "w", "mini-nim.py"), "w") as f:
        f.write("# warm\n" + ACCEPTED_PY)
    subprocess.run([JUDGE, "--config", cfg, "batch", warm, "--out", warm + "-out"], check=True,
                   capture_output=True, cwd=ROOT)
    pg = Postgres()
    res = {"submissions": TEAMS * 3, "cpus": os.cpu_count(), "runs": []}
    try:
        for n in HOSTS:
            seconds, count, verdicts, queue, per_host = hosts_run(cfg, pg, n, f"hosts{n}")
            b = batch(cfg, n, f"batch{n}")
            run = {"hosts": n, "slots": n, "seconds": round(seconds, 2),
                   "submissions_per_s": round(count / seconds, 2),
                   "batch_seconds": round(b, 2), "batch_submissions_per_s": round(count / b, 2),
                   "ratio_hosts_batch": round((count / seconds) / (count / b), 3),
                   "verdicts": verdicts, "judged_per_host": per_host, "queue_per_host": queue}
            if n == 1:
                run["hosts_minus_batch_per_submission_ms"] = round((seconds - b) * 1000 / count, 2)
            res["runs"].append(run)
            note(json.dumps(run))
    finally:
        pg.stop()
    with open(os.path.join(ROOT, "target", "bench-judgehosts.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(f"\n### judging hosts over PostgreSQL ({res['submissions']} submissions, {res['cpus']} CPUs)\n")
    print("| hosts (-j 1 each) | hosts: s | subs/s | batch -j N: s | subs/s | hosts / batch |")
    print("|---|---|---|---|---|---|")
    for r in res["runs"]:
        print(f"| {r['hosts']} | {r['seconds']} | {r['submissions_per_s']} | {r['batch_seconds']} | "
              f"{r['batch_submissions_per_s']} | {r['ratio_hosts_batch']} |")
    print("\nqueue overhead per submission (claim + outcome transactions, as each host measured; target < 5 ms):\n")
    print("| hosts | host | judgements | p50 ms | p99 ms | mean ms |")
    print("|---|---|---|---|---|---|")
    for r in res["runs"]:
        for i, q in enumerate(r["queue_per_host"]):
            print(f"| {r['hosts']} | {i + 1} | {q['judgements']} | {q['p50_ms']} | {q['p99_ms']} | {q['mean_ms']} |")
    one = res["runs"][0]
    print(f"\none host against batch -j 1: (hosts' time - batch's time) / submissions = "
          f"{one['hosts_minus_batch_per_submission_ms']} ms")


if __name__ == "__main__":
    main()
