# Accepted: normal-play Nim, the first player wins iff the xor of the heaps is non-zero.
import sys


def main():
    out = []
    for line in sys.stdin.buffer.read().split(b"\n"):
        toks = line.split()
        if not toks:
            continue
        x = 0
        for t in toks[1:]:
            x ^= int(t)
        out.append("Yes" if x else "No")
    sys.stdout.write("\n".join(out) + "\n")


main()
