// Wrong rule: applies the misere-Nim rule (as if taking the last match lost). It differs
// from the right answer only when every heap holds exactly one match, e.g. `2 1 1`.
#include <cstdio>

int main() {
    int m;
    while (std::scanf("%d", &m) == 1) {
        long long x = 0;
        bool all_one = true;
        for (int i = 0; i < m; i++) {
            long long p;
            std::scanf("%lld", &p);
            x ^= p;
            if (p > 1) all_one = false;
        }
        bool first_wins = all_one ? (m % 2 == 0) : (x != 0);
        std::puts(first_wins ? "Yes" : "No");
    }
    return 0;
}
