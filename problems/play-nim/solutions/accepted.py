# Nim: move first exactly when the xor is not 0; always leave xor 0.
import sys
from functools import reduce


def main():
    read = sys.stdin.readline
    games = int(read())
    for _ in range(games):
        n, *piles = map(int, read().split())
        x = reduce(lambda a, b: a ^ b, piles)
        mine = x != 0
        print("first" if mine else "second", flush=True)
        while any(piles):
            if mine:
                x = reduce(lambda a, b: a ^ b, piles)
                i = next(i for i, p in enumerate(piles) if p ^ x < p)
                k = piles[i] - (piles[i] ^ x)
                piles[i] -= k
                print(i + 1, k, flush=True)
            else:
                i, k = map(int, read().split())
                piles[i - 1] -= k
            mine = not mine


main()
