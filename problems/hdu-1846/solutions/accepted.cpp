// Accepted: the first player wins iff n % (m + 1) != 0.
#include <cstdio>

int main() {
    int c;
    if (scanf("%d", &c) != 1) return 0;
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
        puts(n % (m + 1) != 0 ? "first" : "second");
    }
    return 0;
}
