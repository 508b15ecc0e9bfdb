/* Wrong: off by one at the boundary, Alice for n <= 3 (n = 3 is a loss for her:
   any first move leaves one or two coins in a line, which Bob takes). */
#include <stdio.h>
int main(void) {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) puts(n <= 3 ? "Alice" : "Bob");
    return 0;
}
