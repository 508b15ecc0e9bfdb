// WRONG: reads the count C but then answers only the first case.
#include <cstdio>

int main() {
    int c, n, m;
    if (scanf("%d", &c) != 1) return 0;
    scanf("%d %d", &n, &m);
    puts(n % (m + 1) != 0 ? "first" : "second");
    return 0;
}
