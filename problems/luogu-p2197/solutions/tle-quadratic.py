# TOO SLOW (correct answers): for each pile, recompute the xor of all the OTHER
# piles from scratch and check whether some move on this pile reaches xor 0,
# i.e. whether (xor of the others) < pile. Stops at the first winning move, so it
# is O(n^2) per losing case: about 10^8 steps for each losing case with n = 10^4.
import sys


def first_player_wins(piles):
    n = len(piles)
    for i in range(n):
        others = 0
        for j in range(n):
            if j != i:
                others ^= piles[j]
        if others < piles[i]:
            return True
    return False


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    for _ in range(t):
        n = int(data[pos])
        piles = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += 1 + n
        print("Yes" if first_player_wins(piles) else "No")


main()
