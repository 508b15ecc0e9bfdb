// Accepted: normal-play Nim, the first player wins iff the xor of the heaps is non-zero.
// Reads `M p1 .. pM` groups until end of file.
#include <cstdio>

int main() {
    int m;
    while (std::scanf("%d", &m) == 1) {
        long long x = 0;
        for (int i = 0; i < m; i++) {
            long long p;
            std::scanf("%lld", &p);
            x ^= p;
        }
        std::puts(x != 0 ? "Yes" : "No");
    }
    return 0;
}
