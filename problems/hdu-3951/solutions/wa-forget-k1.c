/* WRONG: forgets the special case K == 1 (forced play, parity of N decides);
   answers "first" iff K >= N. */
#include <stdio.h>

int main(void) {
    int t, i;
    if (scanf("%d", &t) != 1) return 0;
    for (i = 1; i <= t; ++i) {
        long long n, k;
        if (scanf("%lld %lld", &n, &k) != 2) return 0;
        printf("Case %d: %s\n", i, k >= n ? "first" : "second");
    }
    return 0;
}
