// WRONG: misreads the rules as "the game is over once some pile is empty", so a
// case containing an empty pile is a loss for the player to move; otherwise xor.
// Fails on the sample's second case `1 0` (prints No, the answer is Yes).
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        bool has_empty = false;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            if (a == 0) has_empty = true;
            x ^= a;
        }
        puts(!has_empty && x != 0 ? "Yes" : "No");
    }
    return 0;
}
