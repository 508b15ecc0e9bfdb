# WRONG: uses the parity of the SUM of the piles instead of their xor.
# Fails e.g. on `1 3` (xor 2: Yes; the sum 4 is even, so this prints No).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    total = sum(int(token) for token in data[pos + 1:pos + 1 + n])
    pos += 1 + n
    print("Yes" if total % 2 == 1 else "No")
