// Mistake: right steps, wrong combination -- parity of the number of stones on
// the odd steps instead of their XOR.
#include <iostream>
using namespace std;

int main() {
    int n;
    cin >> n;
    long long sum = 0;
    for (int i = 1; i <= n; i++) {
        long long x;
        cin >> x;
        if (i % 2 == 1) sum += x;
    }
    cout << (sum % 2 ? "Yes" : "No") << "\n";
    return 0;
}
