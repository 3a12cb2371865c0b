// Correct but exponential: memoised search over the sorted multiset of piles.
#include <bits/stdc++.h>
using namespace std;

map<vector<int>, bool> memo;

bool win(const vector<int> &s) {
    auto it = memo.find(s);
    if (it != memo.end()) return it->second;
    bool res = false;
    int n = s.size();
    for (int i = 0; i < n && !res; i++) {
        if (i && s[i] == s[i - 1]) continue;
        vector<int> t = s;
        if (--t[i] == 0) t.erase(t.begin() + i);
        sort(t.begin(), t.end());
        if (!win(t)) res = true;
        for (int j = i + 1; j < n && !res; j++) {
            vector<int> u = s;
            u[i] += u[j];
            u.erase(u.begin() + j);
            sort(u.begin(), u.end());
            if (!win(u)) res = true;
        }
    }
    return memo[s] = res;
}

int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        int n;
        scanf("%d", &n);
        vector<int> a(n);
        for (auto &x : a) scanf("%d", &x);
        sort(a.begin(), a.end());
        puts(win(a) ? "YES" : "NO");
    }
}
