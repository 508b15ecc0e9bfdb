# Wrong rule: treats S as {1, 2, ..., max(S)} (a Bash game per heap), so sg(x) = x mod (max(S) + 1).
import sys

data = sys.stdin.buffer.read().split()
k = int(data[0])
top = max(int(t) for t in data[1:1 + k])
n = int(data[1 + k])
t = 0
for v in data[2 + k:2 + k + n]:
    t ^= int(v) % (top + 1)
print("Yes" if t else "No")
