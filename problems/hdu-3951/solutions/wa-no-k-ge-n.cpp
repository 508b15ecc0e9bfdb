// WRONG: forgets that the first player takes the whole ring at once when K >= N;
// only handles K == 1 (parity) and otherwise answers "second".
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    for (int i = 1; i <= t; ++i) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        bool first = (k == 1) && (n % 2 == 1);
        printf("Case %d: %s\n", i, first ? "first" : "second");
    }
    return 0;
}
