# Accepted: Sprague-Grundy values bottom-up, sg[x] = mex{ sg[x - s] : s in S, s <= x };
# the first player wins iff the xor of the heaps' SG values is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    moves = sorted(int(t) for t in data[1:1 + k])
    n = int(data[1 + k])
    heaps = [int(t) for t in data[2 + k:2 + k + n]]
    mx = max(heaps)
    sg = [0] * (mx + 1)
    for x in range(1, mx + 1):
        if x >= moves[-1]:
            seen = {sg[x - m] for m in moves}
        else:
            seen = {sg[x - m] for m in moves if m <= x}
        g = 0
        while g in seen:
            g += 1
        sg[x] = g
    t = 0
    for v in heaps:
        t ^= sg[v]
    print("Yes" if t else "No")


main()
