// WRONG: forgets to order the piles. It uses k = |a - b| correctly and exact integer
// arithmetic, but compares the FIRST number with floor(k * phi) instead of the smaller
// one, so a losing position written larger-first, such as "2 1", is called a win.
#include <cmath>
#include <cstdio>
#include <cstdlib>

static unsigned long long isqrt(unsigned long long x) {
    unsigned long long r = (unsigned long long)std::sqrt((double)x);
    while (r * r > x) r--;
    while ((r + 1) * (r + 1) <= x) r++;
    return r;
}

int main() {
    long long a, b;
    while (std::scanf("%lld %lld", &a, &b) == 2) {
        unsigned long long k = (unsigned long long)std::llabs(b - a);
        unsigned long long ak = (k + isqrt(5 * k * k)) / 2;
        std::puts((unsigned long long)a == ak ? "0" : "1");
    }
    return 0;
}
