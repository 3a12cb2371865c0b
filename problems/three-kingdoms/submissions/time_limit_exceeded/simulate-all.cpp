// Plays out the draft for every sequence of the human's choices (the computer's replies follow
// its rule) and keeps the best winning pair: correct, but about N!! leaves.
#include <cstdio>
#include <vector>
using namespace std;

int n;
static int a[505][505];
bool used[505];
vector<int> human, comp;
int best = -1;

int bestPair(const vector<int>& s) {
    int b = -1;
    for (size_t i = 0; i < s.size(); i++)
        for (size_t j = i + 1; j < s.size(); j++)
            if (a[s[i]][s[j]] > b) b = a[s[i]][s[j]];
    return b;
}

void dfs() {
    if ((int)(human.size() + comp.size()) == n) {
        int h = bestPair(human);
        if (h > bestPair(comp) && h > best) best = h;
        return;
    }
    for (int x = 1; x <= n; x++) {
        if (used[x]) continue;
        used[x] = true;
        human.push_back(x);
        int cv = -1, c = -1;
        for (int h : human)
            for (int f = 1; f <= n; f++)
                if (!used[f] && a[h][f] > cv) { cv = a[h][f]; c = f; }
        used[c] = true;
        comp.push_back(c);
        dfs();
        comp.pop_back();
        used[c] = false;
        human.pop_back();
        used[x] = false;
    }
}

int main() {
    scanf("%d", &n);
    for (int i = 1; i < n; i++)
        for (int j = i + 1; j <= n; j++) {
            scanf("%d", &a[i][j]);
            a[j][i] = a[i][j];
        }
    dfs();
    if (best >= 0) printf("1\n%d\n", best);
    else printf("0\n");
    return 0;
}
