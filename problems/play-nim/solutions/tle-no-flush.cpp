// Correct play, but it never flushes: its answers wait in its own buffer
// while the interactor waits for them. Both idle: TLE.
#include <iostream>
#include <vector>
int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);  // reading no longer flushes the answers
    int games;
    std::cin >> games;
    while (games--) {
        int n;
        std::cin >> n;
        std::vector<long long> p(n);
        long long x = 0;
        for (auto &v : p) { std::cin >> v; x ^= v; }
        bool mine = x != 0;
        std::cout << (mine ? "first" : "second") << '\n';
        for (;;) {
            bool left = false;
            for (auto v : p) if (v) left = true;
            if (!left) break;
            if (mine) {
                long long t = 0;
                for (auto v : p) t ^= v;
                int i = 0;
                while ((p[i] ^ t) >= p[i]) i++;
                long long k = p[i] - (p[i] ^ t);
                p[i] -= k;
                std::cout << i + 1 << ' ' << k << '\n';
            } else {
                int i; long long k;
                std::cin >> i >> k;
                p[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}
