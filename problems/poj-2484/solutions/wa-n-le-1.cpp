// Wrong: forgets that two coins in a circle are adjacent and can be taken together;
// answers Alice only for n == 1, so n = 2 gets Bob.
#include <cstdio>
int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) puts(n <= 1 ? "Alice" : "Bob");
    return 0;
}
