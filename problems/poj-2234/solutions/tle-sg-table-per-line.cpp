// Too slow: for every line it rebuilds the Sprague-Grundy table of a single heap,
// sg[x] = mex{ sg[y] : y < x }, up to the largest heap of that line (O(max pile) per
// line, up to 10^7 * 10^4 steps on the max test), instead of using sg[x] = x.
// The table is allocated once (about 41 MiB), so it stays inside the memory limit.
#include <cstdio>
#include <cstring>
#include <vector>

static int sg[10000001];

int main() {
    int m;
    std::vector<bool> seen(10000002);
    while (std::scanf("%d", &m) == 1) {
        int p[20];
        int mx = 0;
        for (int i = 0; i < m; i++) {
            std::scanf("%d", &p[i]);
            if (p[i] > mx) mx = p[i];
        }
        std::fill(seen.begin(), seen.begin() + mx + 2, false);
        int mex = 0;
        for (int x = 0; x <= mx; x++) {
            sg[x] = mex;            // options of x are all y < x, whose values are marked
            seen[sg[x]] = true;
            while (seen[mex]) mex++;
        }
        int x = 0;
        for (int i = 0; i < m; i++) x ^= sg[p[i]];
        std::puts(x != 0 ? "Yes" : "No");
    }
    return 0;
}
