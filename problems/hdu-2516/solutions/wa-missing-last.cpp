// Wrong: the table holds only 44 terms 1, 2, 3, ..., 1134903170, so the largest Fibonacci
// number below 2^31, 1836311903, is missing and gets "First win" instead of "Second win".
#include <cstdio>
int main() {
    long long f[44];
    f[0] = 1;
    f[1] = 2;
    for (int i = 2; i < 44; i++) f[i] = f[i - 1] + f[i - 2];
    long long n;
    while (scanf("%lld", &n) == 1 && n != 0) {
        bool lose = false;
        for (int i = 0; i < 44; i++)
            if (f[i] == n) lose = true;
        puts(lose ? "Second win" : "First win");
    }
    return 0;
}
