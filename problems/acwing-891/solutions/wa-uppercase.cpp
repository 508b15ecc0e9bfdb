// WRONG: the rule is right, but it prints `YES` / `NO` instead of `Yes` / `No`.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    unsigned int x = 0;
    for (int i = 0; i < n; i++) {
        unsigned int a;
        scanf("%u", &a);
        x ^= a;
    }
    puts(x != 0 ? "YES" : "NO");
    return 0;
}
