// Naive: computes the SG table by definition (mex over taking stones and over
// every split) up to the largest pile. Correct, but quadratic in the pile size.
#include <cstdio>
#include <vector>
using namespace std;

int main() {
    int t;
    scanf("%d", &t);
    vector<vector<long long>> tests(t);
    long long mx = 0;
    for (auto &v : tests) {
        int n;
        scanf("%d", &n);
        v.resize(n);
        for (auto &s : v) {
            scanf("%lld", &s);
            if (s > mx) mx = s;
        }
    }
    vector<long long> sg(1, 0);  // sg[0] = 0
    vector<char> seen;
    for (long long x = 1; x <= mx; x++) {
        seen.assign(2 * x + 2, 0);
        for (long long y = 0; y < x; y++) seen[sg[y]] = 1;                 // take stones
        for (long long a = 1; a <= x / 2; a++) seen[sg[a] ^ sg[x - a]] = 1;  // split
        long long m = 0;
        while (seen[m]) m++;
        sg.push_back(m);
    }
    for (auto &v : tests) {
        long long x = 0;
        for (long long s : v) x ^= sg[s];
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}
