# WRONG: off by one at the upper end of Ollie's intervals: uses n < 18*18^k instead of
# n <= 18*18^k, so n = 18, 324, 5832, ..., 612220032 (Ollie wins) get "Stan wins.".
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        p = 1
        while True:
            if n <= 9 * p:
                out.append("Stan wins.")
                break
            if n < 18 * p:
                out.append("Ollie wins.")
                break
            p *= 18
    sys.stdout.write("\n".join(out) + "\n")


main()
