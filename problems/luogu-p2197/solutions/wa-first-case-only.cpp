// WRONG: solves the first case correctly and stops, as if the input held one
// position (the AcWing 891 format). Fails on every test with T >= 2.
#include <cstdio>

int main() {
    int t, n;
    if (scanf("%d %d", &t, &n) != 2) return 1;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        x ^= a;
    }
    puts(x != 0 ? "Yes" : "No");
    return 0;
}
