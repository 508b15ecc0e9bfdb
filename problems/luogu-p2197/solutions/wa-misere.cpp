// WRONG: applies the misere (anti-Nim) rule, where taking the last stone LOSES:
// if every pile has at most one stone the first player wins iff the xor is 0,
// otherwise iff the xor is nonzero. Fails when all piles are 0 or 1
// (e.g. the sample: `1 1` prints Yes, `1 0` prints No).
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        bool all_small = true;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            if (a > 1) all_small = false;
            x ^= a;
        }
        bool first_wins = all_small ? (x == 0) : (x != 0);
        puts(first_wins ? "Yes" : "No");
    }
    return 0;
}
