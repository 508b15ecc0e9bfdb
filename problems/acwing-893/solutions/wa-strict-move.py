# Off-by-one in the move rule: allows removing s stones only if the heap holds MORE than s
# (`m < x` instead of `m <= x`), so a heap can never be emptied.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    moves = [int(t) for t in data[1:1 + k]]
    n = int(data[1 + k])
    heaps = [int(t) for t in data[2 + k:2 + k + n]]
    mx = max(heaps)
    sg = [0] * (mx + 1)
    for x in range(1, mx + 1):
        seen = {sg[x - m] for m in moves if m < x}
        g = 0
        while g in seen:
            g += 1
        sg[x] = g
    t = 0
    for v in heaps:
        t ^= sg[v]
    print("Yes" if t else "No")


main()
