# WRONG output format: the rule is right, but the answers lack the final period
# ("Stan wins" instead of "Stan wins."), so no line matches.
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        p = 1
        while True:
            if n <= 9 * p:
                out.append("Stan wins")
                break
            if n <= 18 * p:
                out.append("Ollie wins")
                break
            p *= 18
    sys.stdout.write("\n".join(out) + "\n")


main()
