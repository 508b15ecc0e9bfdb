# Accepted: play the optimal strategy forward. Stan multiplies by 9, Ollie by 2
# (and vice versa for the loser's best defence); whoever first reaches p >= n wins.
# Python integers do not overflow.
import sys


def main():
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        p = 1
        while True:
            p *= 9
            if p >= n:
                out.append("Stan wins.")
                break
            p *= 2
            if p >= n:
                out.append("Ollie wins.")
                break
    sys.stdout.write("\n".join(out) + "\n")


main()
