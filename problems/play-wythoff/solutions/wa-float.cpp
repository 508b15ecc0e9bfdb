// The textbook strategy with floor(k * phi) in double precision: right on
// small piles, wrong near the losing pairs with large k (k a Fibonacci
// number, where k * phi is within 1e-8 of an integer), so it misjudges the
// position or moves to a pair that is not losing, and the interactor wins.
#include <cmath>
#include <cstdio>
#include <algorithm>
typedef long long ll;
static const double PHI = (1 + std::sqrt(5.0)) / 2;
static ll lower(ll j) { return (ll)std::floor(j * PHI); }
static bool losing(ll a, ll b) {
    ll x = std::min(a, b), y = std::max(a, b);
    return lower(y - x) == x;
}
static void win(ll a, ll b, int &t, ll &k) {
    ll x = std::min(a, b), y = std::max(a, b);
    int big = a <= b ? 2 : 1;
    if (x == 0) { t = big; k = y; return; }
    ll ak = lower(y - x);
    if (x > ak) { t = 3; k = x - ak; return; }
    for (ll j = (ll)(x / PHI) - 3; j <= (ll)(x / PHI) + 3; j++)
        if (j > 0 && lower(j) == x && x + j < y) { t = big; k = y - (x + j); return; }
    for (ll j = (ll)(x / (PHI * PHI)) - 3; j <= (ll)(x / (PHI * PHI)) + 3; j++)
        if (j > 0 && lower(j) + j == x) { t = big; k = y - lower(j); return; }
    t = big; k = y;  // no move found: empty the larger pile
}
int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    while (games--) {
        ll a, b;
        scanf("%lld %lld", &a, &b);
        bool mine = !losing(a, b);
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        while (a || b) {
            int t; ll k;
            if (mine) {
                win(a, b, t, k);
                if (t == 1 && k > a) k = a;
                if (t == 2 && k > b) k = b;
                if (k < 1) { t = a ? 1 : 2; k = 1; }
                printf("%d %lld\n", t, k);
                fflush(stdout);
            } else {
                scanf("%d %lld", &t, &k);
            }
            if (t != 2) a -= k;
            if (t != 1) b -= k;
            mine = !mine;
        }
    }
}
