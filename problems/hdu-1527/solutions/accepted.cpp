// Accepted: (a, b) with a <= b is losing iff a == floor((b - a) * phi), and
// floor(k * phi) = (k + isqrt(5 k^2)) / 2 exactly (5 k^2 <= 5e18 fits in 64 bits).
// The integer square root starts from a double estimate and is then corrected with
// exact integer comparisons, so the result is exact.
#include <cmath>
#include <cstdio>

static unsigned long long isqrt(unsigned long long x) {
    unsigned long long r = (unsigned long long)std::sqrt((double)x);
    while (r * r > x) r--;
    while ((r + 1) * (r + 1) <= x) r++;
    return r;
}

int main() {
    unsigned long long a, b;
    while (std::scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { unsigned long long t = a; a = b; b = t; }
        unsigned long long k = b - a;
        unsigned long long ak = (k + isqrt(5 * k * k)) / 2;
        std::puts(a == ak ? "0" : "1");
    }
    return 0;
}
