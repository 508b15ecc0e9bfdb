// Too slow: computes sg(x) = mex{ sg(x - s) } by plain recursion without remembering
// results, so the same values are recomputed exponentially often (e.g. S containing
// 1 and 2 with heaps near 10000).
#include <cstdio>
#include <vector>

static std::vector<int> s;

int sg(int x) {
    std::vector<bool> seen(s.size() + 2, false);
    for (int m : s)
        if (m <= x) seen[sg(x - m)] = true;
    int g = 0;
    while (seen[g]) g++;
    return g;
}

int main() {
    int k, n;
    std::scanf("%d", &k);
    s.resize(k);
    for (auto &v : s) std::scanf("%d", &v);
    std::scanf("%d", &n);
    int t = 0;
    for (int i = 0; i < n; i++) {
        int v;
        std::scanf("%d", &v);
        t ^= sg(v);
    }
    std::puts(t ? "Yes" : "No");
    return 0;
}
