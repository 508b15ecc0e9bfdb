// Assumes the move sizes are given in increasing order: it stops scanning S at the first
// move size larger than the heap, so every smaller move size listed after it is missed.
#include <cstdio>
#include <vector>
#include <algorithm>

int main() {
    int k, n;
    std::scanf("%d", &k);
    std::vector<int> s(k);
    for (auto &v : s) std::scanf("%d", &v);
    std::scanf("%d", &n);
    std::vector<int> h(n);
    for (auto &v : h) std::scanf("%d", &v);
    int mx = *std::max_element(h.begin(), h.end());
    std::vector<int> sg(mx + 1, 0);
    for (int x = 1; x <= mx; x++) {
        std::vector<bool> seen(k + 2, false);
        for (int m : s) {
            if (m > x) break;
            seen[sg[x - m]] = true;
        }
        int g = 0;
        while (seen[g]) g++;
        sg[x] = g;
    }
    int t = 0;
    for (int v : h) t ^= sg[v];
    std::puts(t ? "Yes" : "No");
    return 0;
}
