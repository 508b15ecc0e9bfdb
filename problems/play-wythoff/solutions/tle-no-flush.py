# The exact strategy, but print() without flush: to a pipe Python buffers
# its output, so the judge never sees the first answer. Both wait: TLE.
import sys
from math import isqrt


def lower(j):
    return (j + isqrt(5 * j * j)) // 2


read = sys.stdin.readline
for _ in range(int(read())):
    a, b = map(int, read().split())
    x, y = min(a, b), max(a, b)
    print("second" if lower(y - x) == x else "first")
    read()  # waits for the judge, which waits for the answer above
