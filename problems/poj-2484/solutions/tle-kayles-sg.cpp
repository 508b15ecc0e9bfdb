// Too slow: correct, but computes Sprague-Grundy values of lines (a move takes one coin or two
// adjacent coins and splits the line) for every length up to the largest n, trying every split:
// O(n^2) = about 5 * 10^11 steps for n = 10^6. Alice wins iff the line of n-1 or of n-2 coins
// left by her first move has Grundy value 0.
#include <cstdio>
#include <vector>
#include <algorithm>
int main() {
    std::vector<int> ns;
    int n, mx = 0;
    while (scanf("%d", &n) == 1 && n != 0) { ns.push_back(n); mx = std::max(mx, n); }
    std::vector<int> g(mx + 1, 0);
    std::vector<char> seen;
    for (int len = 1; len <= mx; len++) {
        seen.assign(2 * len + 4, 0);  // Grundy values of lines of length <= len stay below 2*len+4
        for (int a = 0; a + 1 <= len; a++) {
            int v = g[a] ^ g[len - 1 - a];
            if (v < (int)seen.size()) seen[v] = 1;
            if (a + 2 <= len) {
                int w = g[a] ^ g[len - 2 - a];
                if (w < (int)seen.size()) seen[w] = 1;
            }
        }
        int m = 0;
        while (seen[m]) m++;
        g[len] = m;
    }
    for (int x : ns) {
        bool alice = g[x - 1] == 0 || (x >= 2 && g[x - 2] == 0);
        puts(alice ? "Alice" : "Bob");
    }
    return 0;
}
