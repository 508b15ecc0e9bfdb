/* WRONG: finds the interval with floating-point logarithms:
 * k = ceil(log(n) / log(18)) - 1, so that 18^k < n <= 18^(k+1), then Stan wins iff
 * n <= 9 * 18^k. At exact powers of 18 the quotient of the two rounded logarithms can
 * come out a hair above the integer; computing every boundary showed this happens for
 * n = 5832 (18^3), 34012224 (18^6) and 612220032 (18^7): ceil jumps one level too high
 * and "Stan wins." is printed where Ollie wins. Every other n in range is answered right. */
#include <stdio.h>
#include <math.h>

int main(void) {
    double n;
    while (scanf("%lf", &n) == 1) {
        int k = (int)ceil(log(n) / log(18.0)) - 1;
        puts(n <= 9 * pow(18.0, k) ? "Stan wins." : "Ollie wins.");
    }
    return 0;
}
