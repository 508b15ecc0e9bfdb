/* WRONG: off-by-one in the xor loop: it starts at index 1 and so ignores the
   first pile. Fails on every losing position (e.g. `2 / 1 1` prints Yes) and on
   winning ones where the other piles xor to 0 (e.g. `1 / 5` prints No). */
#include <stdio.h>

static unsigned int a[100000];

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) scanf("%u", &a[i]);
    unsigned int x = 0;
    for (int i = 1; i < n; i++) x ^= a[i];
    puts(x != 0 ? "Yes" : "No");
    return 0;
}
