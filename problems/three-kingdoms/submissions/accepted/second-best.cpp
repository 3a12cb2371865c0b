#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int a[505][505];

int main() {
    int n;
    scanf("%d", &n);
    for (int i = 1; i < n; i++)
        for (int j = i + 1; j <= n; j++) {
            scanf("%d", &a[i][j]);
            a[j][i] = a[i][j];
        }
    int ans = 0;
    for (int i = 1; i <= n; i++) {
        vector<int> row;
        for (int j = 1; j <= n; j++)
            if (j != i) row.push_back(a[i][j]);
        sort(row.begin(), row.end());
        ans = max(ans, row[row.size() - 2]);
    }
    printf("1\n%d\n", ans);
    return 0;
}
