# Right side, but when it should take from both piles it takes one stone
# more than the smaller pile holds ("empty them both").
import sys
from math import isqrt


def lower(j):
    return (j + isqrt(5 * j * j)) // 2


def losing(a, b):
    return lower(abs(a - b)) == min(a, b)


def move(a, b):
    x, y, big = (a, b, 2) if a <= b else (b, a, 1)
    if x == 0:
        return big, y
    if x > lower(y - x):
        return 3, x + 1  # off by one: illegal
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
    mine = not losing(a, b)
    print("first" if mine else "second", flush=True)
    while a or b:
        if mine:
            t, k = move(a, b)
            print(t, k, flush=True)
        else:
            t, k = map(int, read().split())
        if t != 2:
            a -= k
        if t != 1:
            b -= k
        a, b = max(a, 0), max(b, 0)
        mine = not mine
