/* WRONG: the forward simulation (Stan x9, Ollie x2) with p in 32-bit unsigned.
 * After p = 18^7 = 612220032, p * 9 wraps around 2^32 to 1215012992, so for every n in
 * [1215012993, 2430025984] and in [4116971521, 4294967294] (found by running this
 * loop for every n against the exact rule) the wrong winner is printed, e.g.
 * n = 4294967294 gives "Ollie wins." instead of "Stan wins.". For some n the wrapped
 * product never reaches n and the loop runs forever (TLE): both reject it. */
#include <stdio.h>

int main(void) {
    unsigned int n;
    while (scanf("%u", &n) == 1) {
        unsigned int p = 1;
        for (;;) {
            p *= 9;
            if (p >= n) { puts("Stan wins."); break; }
            p *= 2;
            if (p >= n) { puts("Ollie wins."); break; }
        }
    }
    return 0;
}
