// WRONG rule: guesses that the position is losing when both piles are even.
// (2, 1) is losing and (8, 4) is winning, so the first sample already fails.
#include <cstdio>

int main() {
    long long a, b;
    while (std::scanf("%lld %lld", &a, &b) == 2) {
        bool losing = (a % 2 == 0) && (b % 2 == 0);
        std::puts(losing ? "0" : "1");
    }
    return 0;
}
