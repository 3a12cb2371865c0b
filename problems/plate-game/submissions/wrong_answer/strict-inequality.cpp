// Mistake: demands 2r < side, so a plate exactly as wide as the table is
// thought not to fit.
#include <iostream>
using namespace std;

int main() {
    int a, b, r;
    cin >> a >> b >> r;
    cout << (2 * r < a && 2 * r < b ? "First" : "Second") << endl;
}
