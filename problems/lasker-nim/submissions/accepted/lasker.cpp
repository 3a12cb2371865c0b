#include <cstdio>
#include <cctype>

static char buf[1 << 16];
static int len = 0, at = 0;

static int readChar() {
    if (at == len) {
        len = (int)fread(buf, 1, sizeof buf, stdin);
        at = 0;
        if (len <= 0) return -1;
    }
    return buf[at++];
}

static long long readInt() {
    int c = readChar();
    while (c != -1 && !isdigit(c)) c = readChar();
    long long x = 0;
    while (c != -1 && isdigit(c)) {
        x = x * 10 + (c - '0');
        c = readChar();
    }
    return x;
}

int main() {
    int t = (int)readInt();
    while (t--) {
        int n = (int)readInt();
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s = readInt();
            long long g;
            if (s % 4 == 0) g = s - 1;
            else if (s % 4 == 3) g = s + 1;
            else g = s;
            x ^= g;
        }
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}
