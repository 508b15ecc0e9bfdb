// WRONG: win/lose table whose inner loop runs to m + 1 instead of m, i.e. it lets a
// player take m + 1 stones (off by one); equivalent to n % (m + 2) != 0.
#include <cstdio>

int main() {
    static bool win[1001];
    int c;
    if (scanf("%d", &c) != 1) return 0;
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
        win[0] = false;
        for (int x = 1; x <= n; ++x) {
            win[x] = false;
            for (int t = 1; t <= m + 1 && t <= x; ++t)
                if (!win[x - t]) { win[x] = true; break; }
        }
        puts(win[n] ? "first" : "second");
    }
    return 0;
}
