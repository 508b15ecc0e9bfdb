// Accepted: for each case, the first player wins iff the xor of all piles is nonzero
// (empty piles change nothing; all piles empty means xor 0, a loss).
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
        }
        puts(x != 0 ? "Yes" : "No");
    }
    return 0;
}
