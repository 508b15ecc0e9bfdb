# Always lets the judge move first: on a winning position the judge takes
# the win. (Then it plays the exact strategy.)
import sys
from math import isqrt


def lower(j):
    return (j + isqrt(5 * j * j)) // 2


def losing(a, b):
    return lower(abs(a - b)) == min(a, b)


def move(a, b):
    # the exact strategy, by search over the pairs near the piles
    x, y, big = (a, b, 2) if a <= b else (b, a, 1)
    if x == 0:
        return big, y
    if x > lower(y - x):
        return 3, x - lower(y - x)
    for j in range(max(1, int(x * 0.618) - 3), int(x * 0.618) + 4):
        if lower(j) == x:
            return big, y - (x + j)
    for j in range(max(1, int(x * 0.382) - 3), int(x * 0.382) + 4):
        if lower(j) + j == x:
            return big, y - lower(j)
    return big, 1


read = sys.stdin.readline
for _ in range(int(read())):
    a, b = map(int, read().split())
    print("second", flush=True)
    mine = False
    while a or b:
        if mine:
            if losing(a, b):
                t, k = (1, a) if a >= b else (2, b)  # lost: empty the larger pile
            else:
                t, k = move(a, b)
            print(t, k, flush=True)
        else:
            t, k = map(int, read().split())
        if t != 2:
            a -= k
        if t != 1:
            b -= k
        mine = not mine
