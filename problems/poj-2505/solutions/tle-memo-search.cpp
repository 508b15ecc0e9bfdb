// TOO SLOW: a game search over the reachable products p, memoised in a map
// that starts empty for each n, as many accepted solutions of the original
// (whose inputs were few) do. Right answers, but about 1.3 ms of CPU per
// line at the largest n: 1000 such lines (the `worst` test) take ~1.3 s,
// while the `max` tests' mix takes it ~0.75 s. Memoising across lines, or
// the closed form (reference.rs), is fast enough.
#include <cstdio>
#include <map>

typedef long long ll;

static ll n;
static std::map<ll, bool> memo;

// Whether the player to move from p wins.
static bool wins(ll p) {
    auto it = memo.find(p);
    if (it != memo.end()) return it->second;
    bool w = false;
    for (int d = 2; d <= 9 && !w; d++)
        if (p * d >= n || !wins(p * d)) w = true;
    return memo[p] = w;
}

int main() {
    while (scanf("%lld", &n) == 1) {
        memo.clear();
        puts(wins(1) ? "Stan wins." : "Ollie wins.");
    }
}
