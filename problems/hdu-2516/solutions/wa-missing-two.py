# Wrong: the loop advances before recording, so the set starts at 3 and misses 2;
# n = 2 gets "First win" (the first move may not take both stones, so it is a loss).
import sys


def main():
    fib = set()
    a, b = 1, 2
    while b < 2 ** 31:
        a, b = b, a + b
        fib.add(b)
    out = []
    for tok in sys.stdin.buffer.read().split():
        n = int(tok)
        if n == 0:
            break
        out.append("Second win" if n in fib else "First win")
    sys.stdout.write("\n".join(out) + "\n")


main()
