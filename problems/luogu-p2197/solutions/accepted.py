# Accepted: for each case, the first player wins iff the xor of all piles is nonzero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        x = 0
        for token in data[pos:pos + n]:
            x ^= int(token)
        pos += n
        out.append("Yes" if x else "No")
    sys.stdout.write("\n".join(out) + "\n")


main()
