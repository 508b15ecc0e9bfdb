# Right side, but empties a pile by taking one stone more than it has.
import sys
from functools import reduce

read = sys.stdin.readline
for _ in range(int(read())):
    n, *piles = map(int, read().split())
    mine = reduce(lambda a, b: a ^ b, piles) != 0
    print("first" if mine else "second", flush=True)
    while any(piles):
        if mine:
            x = reduce(lambda a, b: a ^ b, piles)
            i = next(i for i, p in enumerate(piles) if p ^ x < p)
            k = piles[i] - (piles[i] ^ x)
            if piles[i] == k:
                k += 1  # "take the whole pile", off by one
            piles[i] = max(0, piles[i] - k)
            print(i + 1, k, flush=True)
        else:
            i, k = map(int, read().split())
            piles[i - 1] -= k
        mine = not mine
