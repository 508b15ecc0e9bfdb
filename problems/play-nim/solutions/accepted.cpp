// Nim: move first exactly when the xor is not 0; always leave xor 0.
#include <cstdio>
#include <vector>
int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    while (games--) {
        int n;
        scanf("%d", &n);
        std::vector<long long> p(n);
        for (auto &x : p) scanf("%lld", &x);
        auto total = [&] { long long x = 0; for (auto v : p) x ^= v; return x; };
        auto left = [&] { for (auto v : p) if (v) return true; return false; };
        bool mine = total() != 0;
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        while (left()) {
            if (mine) {
                long long x = total();
                int i = 0;
                while ((p[i] ^ x) >= p[i]) i++;
                long long k = p[i] - (p[i] ^ x);
                p[i] -= k;
                printf("%d %lld\n", i + 1, k);
                fflush(stdout);
            } else {
                int i; long long k;
                scanf("%d %lld", &i, &k);
                p[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}
