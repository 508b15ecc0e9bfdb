// Off-by-one in the mex: the search for the smallest missing value only tries 0..k-1
// (loop bound `g < k` instead of `g <= k`), so when the k options have the values
// 0..k-1 the SG value should be k but stays 0. E.g. S = {1}: sg(1) should be 1.
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
        std::vector<bool> seen(k + 1, false);
        for (int m : s)
            if (m <= x) seen[sg[x - m]] = true;
        for (int g = 0; g < k; g++)
            if (!seen[g]) { sg[x] = g; break; }
    }
    int t = 0;
    for (int v : h) t ^= sg[v];
    std::puts(t ? "Yes" : "No");
    return 0;
}
