// WRONG: correct rule, but prints only "first"/"second" without the "Case i: " prefix.
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    for (int i = 1; i <= t; ++i) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        bool first = (k == 1) ? (n % 2 == 1) : (k >= n);
        puts(first ? "first" : "second");
    }
    return 0;
}
