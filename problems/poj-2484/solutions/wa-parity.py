# Wrong rule: decides by parity (Alice wins when n is odd), as if the players simply
# alternated taking single coins. Fails already on n = 2 and n = 3.
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        if n == 0:
            break
        out.append("Alice" if n % 2 == 1 else "Bob")
    sys.stdout.write("\n".join(out) + "\n")


main()
