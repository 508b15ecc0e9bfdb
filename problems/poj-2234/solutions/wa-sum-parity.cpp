// Wrong rule: says the first player wins iff the total number of matches is odd
// (confuses Nim with a one-match-per-move game). Fails on e.g. `2 1 2`.
#include <cstdio>

int main() {
    int m;
    while (std::scanf("%d", &m) == 1) {
        long long s = 0;
        for (int i = 0; i < m; i++) {
            long long p;
            std::scanf("%lld", &p);
            s += p;
        }
        std::puts(s % 2 == 1 ? "Yes" : "No");
    }
    return 0;
}
