# Always moves first: on a losing position (xor 0) the interactor wins.
import sys
from functools import reduce

read = sys.stdin.readline
for _ in range(int(read())):
    n, *piles = map(int, read().split())
    print("first", flush=True)
    mine = True
    while any(piles):
        if mine:
            x = reduce(lambda a, b: a ^ b, piles)
            i = next((i for i, p in enumerate(piles) if p ^ x < p), None)
            if i is None:  # lost: any legal move
                i = next(i for i, p in enumerate(piles) if p)
                k = 1
            else:
                k = piles[i] - (piles[i] ^ x)
            piles[i] -= k
            print(i + 1, k, flush=True)
        else:
            i, k = map(int, read().split())
            piles[i - 1] -= k
        mine = not mine
