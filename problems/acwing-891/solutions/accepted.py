# Accepted: Bouton's theorem, the first player wins iff the xor of all piles is nonzero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for token in data[1:n + 1]:
        x ^= int(token)
    sys.stdout.write("Yes\n" if x else "No\n")


main()
