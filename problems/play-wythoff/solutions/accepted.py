# Wythoff: the losing pairs are (floor(j*phi), floor(j*phi) + j); floor(j*phi)
# is computed exactly as (j + isqrt(5*j*j)) // 2. Move first exactly when the
# position is not such a pair, and always move to one.
import sys
from math import isqrt


def lower(j):
    return (j + isqrt(5 * j * j)) // 2


def losing(a, b):
    x, y = min(a, b), max(a, b)
    return lower(y - x) == x


def pair_of(v):
    for c, upper in ((int(v * 0.61803398875), False), (int(v * 0.38196601125), True)):
        for j in range(max(0, c - 3), c + 4):
            a = lower(j)
            if not upper and j > 0 and a == v:
                return j, False
            if upper and a + j == v:
                return j, True
    raise AssertionError(v)


def winning_move(a, b):
    x, y, big = (a, b, 2) if a <= b else (b, a, 1)
    if x == 0:
        return big, y
    ak = lower(y - x)
    if x > ak:
        return 3, x - ak
    j, upper = pair_of(x)
    target = lower(j) if upper else x + j
    return big, y - target


def main():
    read = sys.stdin.readline
    for _ in range(int(read())):
        a, b = map(int, read().split())
        mine = not losing(a, b)
        print("first" if mine else "second", flush=True)
        while a or b:
            if mine:
                t, k = winning_move(a, b)
                print(t, k, flush=True)
            else:
                t, k = map(int, read().split())
            if t != 2:
                a -= k
            if t != 1:
                b -= k
            mine = not mine


main()
