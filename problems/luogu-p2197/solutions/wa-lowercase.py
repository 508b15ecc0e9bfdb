# WRONG: the rule is right, but it prints `yes` / `no` instead of `Yes` / `No`.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    x = 0
    for token in data[pos + 1:pos + 1 + n]:
        x ^= int(token)
    pos += 1 + n
    print("yes" if x else "no")
