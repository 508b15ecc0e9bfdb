"""The CPU-time spread floor: runs BINARY on INPUT N times, JOBS at a time,
with no judge around it, and prints max/min of the children's CPU time
(user + system, from wait4) with the min and max in ms, as the judge's
spread figure is printed. It is what the machine itself gives the same
program; bench/run.sh measures it alongside `judge -j 2`.

usage: python3 bench/spread.py BINARY INPUT N JOBS
"""
import os
import sys


def main():
    binary, path, n, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    data = open(path, "rb").read()
    running, times, started = set(), [], 0

    def start():
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(read, 0)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
                os.execv(binary, [binary])
            finally:
                os._exit(127)  # only if exec failed: never go on as the parent
        os.close(read)
        os.write(write, data)
        os.close(write)
        running.add(pid)

    while started < min(jobs, n):
        start()
        started += 1
    while running:
        pid, status, usage = os.wait4(-1, 0)
        running.discard(pid)
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            sys.exit(f"spread: {binary} failed: status {status}")
        times.append((usage.ru_utime + usage.ru_stime) * 1000)
        if started < n:
            start()
            started += 1
    print(f"{max(times) / max(min(times), 1e-3):.3f} {round(min(times))} {round(max(times))}")


main()
