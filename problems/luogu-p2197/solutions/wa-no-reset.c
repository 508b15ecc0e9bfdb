/* WRONG: the xor accumulator is declared once, outside the loop over cases, and
   never reset, so each answer uses the piles of all cases so far. Fails e.g. on
   `2 / 1 / 5 / 2 / 3 3` (second case prints Yes, the answer is No). */
#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    int x = 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
        }
        puts(x != 0 ? "Yes" : "No");
    }
    return 0;
}
