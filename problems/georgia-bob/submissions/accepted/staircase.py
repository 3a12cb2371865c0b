import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        p = sorted(int(v) for v in data[pos + 1:pos + 1 + n])
        pos += 1 + n
        x = 0
        # Pair from the right end: (p[n-2], p[n-1]), (p[n-4], p[n-3]), ...
        # with the wall at 0 as the partner of p[0] when n is odd.
        i = n - 1
        while i >= 0:
            left = p[i - 1] if i >= 1 else 0
            x ^= p[i] - left - 1
            i -= 2
        out.append("Georgia will win" if x else "Bob will win")
    print("\n".join(out))


main()
