// Correct but naive: a win/lose table up to the largest n asked, trying every legal take
// (1 and each prime) until a winning one is found. Losing positions scan all primes below n.
#include <cstdio>
#include <vector>
using namespace std;

int main() {
    int t;
    scanf("%d", &t);
    vector<int> q(t);
    int mx = 1;
    for (int i = 0; i < t; i++) {
        scanf("%d", &q[i]);
        if (q[i] > mx) mx = q[i];
    }
    vector<char> comp(mx + 1, 0);
    vector<int> takes;
    takes.push_back(1);
    for (int i = 2; i <= mx; i++) {
        if (!comp[i]) {
            takes.push_back(i);
            for (long long j = (long long)i * i; j <= mx; j += i) comp[j] = 1;
        }
    }
    vector<char> win(mx + 1, 0);
    for (int n = 1; n <= mx; n++) {
        for (int x : takes) {
            if (x > n) break;
            if (!win[n - x]) { win[n] = 1; break; }
        }
    }
    for (int i = 0; i < t; i++) puts(win[q[i]] ? "October wins!" : "Roy wins!");
    return 0;
}
