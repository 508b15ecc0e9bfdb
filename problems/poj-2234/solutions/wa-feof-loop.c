/* Wrong framing: the classic `while (!feof(stdin))` loop. After the last line the final
   newline is still unread, so the loop runs once more, scanf fails, the old values stay
   in place and the last answer is printed a second time (one line too many). */
#include <stdio.h>

int main(void) {
    int m = 0;
    long long p[32] = {0};
    while (!feof(stdin)) {
        scanf("%d", &m);
        long long x = 0;
        for (int i = 0; i < m; i++) {
            scanf("%lld", &p[i]);
            x ^= p[i];
        }
        puts(x != 0 ? "Yes" : "No");
    }
    return 0;
}
