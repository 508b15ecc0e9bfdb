/* WRONG: the closed formula a == floor((b-a) * phi) evaluated with phi in single
 * precision (float). A float has a 24-bit mantissa, so floor(k * phi) is off by one
 * already at k = 2584 (a Fibonacci number, where k * phi is just below an integer),
 * and for most k above 2^24. */
#include <stdio.h>
#include <math.h>

int main(void) {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        float phi = (1.0f + sqrtf(5.0f)) / 2.0f;
        int k = (int)(b - a);
        int t = (int)(k * phi);
        puts(t == a ? "0" : "1");
    }
    return 0;
}
