# TOO SLOW (correct answers): for each pile, recompute the xor of all the OTHER
# piles from scratch and check whether taking stones from this pile can reach a
# position whose xor is 0, i.e. whether (xor of the others) < pile.
# Stops at the first winning move, so it is O(n^2) on losing positions:
# about 10^10 steps for n = 10^5.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    piles = [int(t) for t in data[1:n + 1]]
    for i in range(n):
        others = 0
        for j in range(n):
            if j != i:
                others ^= piles[j]
        if others < piles[i]:
            print("Yes")
            return
    print("No")


main()
