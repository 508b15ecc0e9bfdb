/* Wrong: decides "n is Fibonacci" with Binet's formula in single precision:
   k = round(log(n*sqrt5)/log(phi)), then compares round(phi^k/sqrt5) with n.
   A float has a 24-bit mantissa, so every Fibonacci number from 2178309 on is
   missed, and 15 non-Fibonacci numbers are accepted (2178310, 3524579, 5702889,
   9227468, ..., 1134903680, 1836312704), found by scanning all n in [2, 2^31). */
#include <stdio.h>
#include <math.h>
static int is_fib(long n) {
    const float s5 = sqrtf(5.0f);
    const float phi = (1.0f + s5) / 2.0f;
    int k = (int)lroundf(logf((float)n * s5) / logf(phi));
    long fk = lroundf(powf(phi, (float)k) / s5);
    return fk == n;
}
int main(void) {
    long n;
    while (scanf("%ld", &n) == 1 && n != 0) {
        puts(is_fib(n) ? "Second win" : "First win");
    }
    return 0;
}
