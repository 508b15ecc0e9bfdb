// Accepted: the first player loses exactly when n is a Fibonacci number.
// Fibonacci numbers are generated in 64-bit integers up to 2^31.
#include <cstdio>
#include <set>
int main() {
    std::set<long long> fib;
    long long a = 1, b = 2;
    while (a < (1LL << 31)) {
        fib.insert(a);
        long long c = a + b;
        a = b;
        b = c;
    }
    long long n;
    while (scanf("%lld", &n) == 1 && n != 0) {
        puts(fib.count(n) ? "Second win" : "First win");
    }
    return 0;
}
