// Mistake: a typo, OR instead of XOR (always non-zero since every pile >= 1).
#include <iostream>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    cin >> n;
    int res = 0;
    while (n--) {
        int a;
        cin >> a;
        res |= a;
    }
    cout << (res ? "Yes" : "No") << endl;
    return 0;
}
