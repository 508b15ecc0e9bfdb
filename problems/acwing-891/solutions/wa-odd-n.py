# WRONG: only looks at whether the number of piles is odd, as if every move
# removed a whole pile. Fails e.g. on `3 / 1 2 3` (losing, prints Yes).
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
print("Yes" if n % 2 == 1 else "No")
