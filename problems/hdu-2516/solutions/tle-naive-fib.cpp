// Too slow: right rule, but every Fibonacci number is recomputed for every query by the
// naive doubly recursive fib(k), which costs about fib(k) calls; for n near 2^31 one query
// alone needs billions of calls, and the max test has 100000 queries.
#include <cstdio>
long long fib(int k) { return k < 2 ? 1 : fib(k - 1) + fib(k - 2); }
int main() {
    long long n;
    while (scanf("%lld", &n) == 1 && n != 0) {
        bool lose = false;
        for (int k = 1;; k++) {
            long long f = fib(k);
            if (f == n) lose = true;
            if (f >= n) break;
        }
        puts(lose ? "Second win" : "First win");
    }
    return 0;
}
