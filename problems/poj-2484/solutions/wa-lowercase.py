# Wrong output format: right rule, but prints the names in lower case (alice / bob).
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        if n == 0:
            break
        out.append("alice" if n <= 2 else "bob")
    sys.stdout.write("\n".join(out) + "\n")


main()
