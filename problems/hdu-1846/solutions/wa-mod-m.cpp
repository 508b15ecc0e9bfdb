// WRONG: uses n % m instead of n % (m + 1) (the period of the Bash game is m + 1).
#include <cstdio>

int main() {
    int c;
    if (scanf("%d", &c) != 1) return 0;
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
        puts(n % m != 0 ? "first" : "second");
    }
    return 0;
}
