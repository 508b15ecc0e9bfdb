# Chooses the right side, then plays "safe": one stone from the larger pile.
# From a won position that hands the judge a winning one, and it wins.
import sys
from math import isqrt


def lower(j):
    return (j + isqrt(5 * j * j)) // 2


read = sys.stdin.readline
for _ in range(int(read())):
    a, b = map(int, read().split())
    mine = lower(abs(a - b)) != min(a, b)
    print("first" if mine else "second", flush=True)
    while a or b:
        if mine:
            t = 1 if a >= b else 2
            print(t, 1, flush=True)
            k = 1
        else:
            t, k = map(int, read().split())
        if t != 2:
            a -= k
        if t != 1:
            b -= k
        mine = not mine
