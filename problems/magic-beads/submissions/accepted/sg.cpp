#include <cstdio>
#include <vector>
using namespace std;

int sg[1005];
vector<int> d[1005];

int main() {
    for (int i = 1; i <= 1000; i++)
        for (int j = 2 * i; j <= 1000; j += i) d[j].push_back(i);
    sg[1] = 0;
    for (int p = 2; p <= 1000; p++) {
        int x = 0;
        for (int b : d[p]) x ^= sg[b];
        bool vis[64] = {false};
        for (int b : d[p]) vis[x ^ sg[b]] = true;
        int m = 0;
        while (vis[m]) m++;
        sg[p] = m;
    }
    int n;
    while (scanf("%d", &n) == 1) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            s ^= sg[a];
        }
        puts(s ? "freda" : "rainbow");
    }
    return 0;
}
