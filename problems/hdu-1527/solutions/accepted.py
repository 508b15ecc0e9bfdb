# Accepted: (a, b) with a <= b is losing iff a == floor((b - a) * phi),
# with floor(k * phi) = (k + isqrt(5 k^2)) // 2 computed exactly by math.isqrt.
# Reads line by line rather than read().split(): with 100000 lines the split list would
# need about 30 MiB of address space, too close to the 32 MiB limit; this needs about 18.
import sys
from math import isqrt


def main():
    out = []
    append = out.append
    for line in sys.stdin.buffer:
        x, y = line.split()
        a = int(x)
        b = int(y)
        if a > b:
            a, b = b, a
        k = b - a
        append("0" if a == (k + isqrt(5 * k * k)) >> 1 else "1")
    sys.stdout.write("\n".join(out))
    sys.stdout.write("\n")


main()
