// Right side, then greedy: empties the largest pile. It loses won
// positions (xor stays non-zero after its move), and the interactor,
// which plays perfectly once it stands on a winning position, wins.
#include <cstdio>
#include <vector>
int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    while (games--) {
        int n;
        scanf("%d", &n);
        std::vector<long long> p(n);
        long long x = 0;
        for (auto &v : p) { scanf("%lld", &v); x ^= v; }
        bool mine = x != 0;
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        for (;;) {
            bool left = false;
            for (auto v : p) if (v) left = true;
            if (!left) break;
            if (mine) {
                int best = 0;
                for (int i = 1; i < n; i++) if (p[i] > p[best]) best = i;
                printf("%d %lld\n", best + 1, p[best]);
                fflush(stdout);
                p[best] = 0;
            } else {
                int i; long long k;
                scanf("%d %lld", &i, &k);
                p[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}
