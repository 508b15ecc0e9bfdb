# WRONG: correct rule, but prints "Case i:first" without the space after the colon.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    out = []
    for i in range(1, t + 1):
        n = int(data[2 * i - 1])
        k = int(data[2 * i])
        first = (n % 2 == 1) if k == 1 else (k >= n)
        out.append("Case %d:%s" % (i, "first" if first else "second"))
    sys.stdout.write("\n".join(out) + "\n")


main()
