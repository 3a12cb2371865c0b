// Bouton: lose iff the XOR is 0; otherwise lower the first heap holding the
// XOR's top bit to a_i ^ X. Whole input read at once (up to 2*10^5 numbers).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using namespace std;

static char buf[1 << 23];
size_t len, pos;

long long next_int() {
    while (pos < len && (buf[pos] < '0' || buf[pos] > '9')) pos++;
    long long v = 0;
    while (pos < len && buf[pos] >= '0' && buf[pos] <= '9') v = v * 10 + (buf[pos++] - '0');
    return v;
}

int main() {
    len = fread(buf, 1, sizeof buf, stdin);
    int t = (int)next_int();
    vector<long long> a;
    string out;
    out.reserve(t * 24);
    char line[64];
    while (t--) {
        int n = (int)next_int();
        a.assign(n, 0);
        long long x = 0;
        for (int i = 0; i < n; i++) x ^= a[i] = next_int();
        if (x == 0) {
            out += "lose\n";
            continue;
        }
        for (int i = 0; i < n; i++) {
            if ((a[i] ^ x) < a[i]) {
                snprintf(line, sizeof line, "%d %lld\n", i + 1, a[i] - (a[i] ^ x));
                out += line;
                break;
            }
        }
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
