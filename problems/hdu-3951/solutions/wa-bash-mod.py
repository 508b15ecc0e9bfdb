# WRONG: treats the ring like a Bash game on a pile: first wins iff N % (K + 1) != 0.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    out = []
    for i in range(1, t + 1):
        n = int(data[2 * i - 1])
        k = int(data[2 * i])
        first = n % (k + 1) != 0
        out.append("Case %d: %s" % (i, "first" if first else "second"))
    sys.stdout.write("\n".join(out) + "\n")


main()
