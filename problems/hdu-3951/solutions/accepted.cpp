// Accepted: K == 1 -> parity of N; K >= N -> first; otherwise second.
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    for (int i = 1; i <= t; ++i) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        bool first = (k == 1) ? (n % 2 == 1) : (k >= n);
        printf("Case %d: %s\n", i, first ? "first" : "second");
    }
    return 0;
}
