# Wrong output format: prints YES / NO instead of Yes / No.
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
        out.append("YES" if x else "NO")
    sys.stdout.write("\n".join(out) + "\n")


main()
