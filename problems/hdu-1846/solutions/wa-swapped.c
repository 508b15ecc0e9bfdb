/* WRONG: correct test, but the two answers are swapped. */
#include <stdio.h>

int main(void) {
    int c, n, m;
    if (scanf("%d", &c) != 1) return 0;
    while (c--) {
        if (scanf("%d %d", &n, &m) != 2) return 0;
        puts(n % (m + 1) != 0 ? "second" : "first");
    }
    return 0;
}
