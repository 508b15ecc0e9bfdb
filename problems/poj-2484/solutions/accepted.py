# Accepted: Alice wins exactly when n <= 2.
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        if n == 0:
            break
        out.append("Alice" if n <= 2 else "Bob")
    sys.stdout.write("\n".join(out) + "\n")


main()
