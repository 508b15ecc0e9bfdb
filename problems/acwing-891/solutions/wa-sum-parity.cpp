// WRONG: uses the parity of the SUM of the piles instead of their xor
// ("Yes" when the total number of stones is odd). Fails e.g. on `2 / 1 3`
// (xor 2, first player wins; sum 4 is even, so this prints No).
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        sum += a;
    }
    puts(sum % 2 == 1 ? "Yes" : "No");
    return 0;
}
