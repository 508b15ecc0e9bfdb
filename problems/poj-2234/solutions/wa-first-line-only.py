# Wrong framing: answers only the first line of the input (forgets to loop until EOF).
import sys

toks = sys.stdin.readline().split()
x = 0
for t in toks[1:]:
    x ^= int(t)
print("Yes" if x else "No")
