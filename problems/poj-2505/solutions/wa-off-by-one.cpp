// WRONG: off by one at the upper end of Stan's intervals: uses n < 9*18^k instead of
// n <= 9*18^k, so n = 9, 162, 2916, 52488, ... (Stan wins, since 9*p reaches n) get
// "Ollie wins.". The first sample (162) already fails.
#include <cstdio>

int main() {
    unsigned long long n;
    while (std::scanf("%llu", &n) == 1) {
        unsigned long long p = 1;
        for (;;) {
            if (n < 9 * p) { std::puts("Stan wins."); break; }
            if (n <= 18 * p) { std::puts("Ollie wins."); break; }
            p *= 18;
        }
    }
    return 0;
}
