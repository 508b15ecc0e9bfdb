// Accepted: Stan wins iff n lies in (18^k, 9*18^k] for some k. Equivalently, replace n by
// ceil(n / 18) while n > 18 (one "9 then 2" round multiplies p by 18), then Stan wins
// iff n <= 9. 64-bit arithmetic, so n + 17 cannot overflow.
#include <cstdio>

int main() {
    unsigned long long n;
    while (std::scanf("%llu", &n) == 1) {
        while (n > 18) n = (n + 17) / 18;
        std::puts(n <= 9 ? "Stan wins." : "Ollie wins.");
    }
    return 0;
}
