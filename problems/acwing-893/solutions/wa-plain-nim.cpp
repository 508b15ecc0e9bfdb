// Wrong rule: ignores the move set and plays plain Nim (xor of the heap sizes).
#include <cstdio>

int main() {
    int k, n, v, t = 0;
    std::scanf("%d", &k);
    for (int i = 0; i < k; i++) std::scanf("%d", &v);
    std::scanf("%d", &n);
    for (int i = 0; i < n; i++) { std::scanf("%d", &v); t ^= v; }
    std::puts(t ? "Yes" : "No");
    return 0;
}
