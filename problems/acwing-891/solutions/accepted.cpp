// Accepted: Bouton's theorem, the first player wins iff the xor of all piles is nonzero.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    unsigned int x = 0;
    for (int i = 0; i < n; i++) {
        unsigned int a;
        scanf("%u", &a);
        x ^= a;
    }
    puts(x != 0 ? "Yes" : "No");
    return 0;
}
