// Accepted: Alice wins only when she can take all coins at once (n <= 2); for n >= 3 Bob
// splits the remaining line into two equal halves and mirrors.
#include <cstdio>
int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) puts(n <= 2 ? "Alice" : "Bob");
    return 0;
}
