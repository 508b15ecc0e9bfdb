# Accepted: the first player loses exactly when n is a Fibonacci number.
import sys


def main():
    fib = set()
    a, b = 1, 2
    while a < 2 ** 31:
        fib.add(a)
        a, b = b, a + b
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        if n == 0:
            break
        out.append("Second win" if n in fib else "First win")
    sys.stdout.write("\n".join(out) + "\n")


main()
