# WRONG rule: treats Wythoff's game like two-pile Nim, calling (a, b) losing only when a == b.
# (2, 1) and (4, 7) are losing too, so the first sample already fails.
import sys


def main():
    out = []
    for line in sys.stdin.buffer:
        x, y = line.split()
        out.append("0" if int(x) == int(y) else "1")
    sys.stdout.write("\n".join(out))
    sys.stdout.write("\n")


main()
