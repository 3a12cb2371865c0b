import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        piles = [int(v) for v in data[pos + 1:pos + 1 + n]]
        pos += 1 + n
        x = 0
        for a in piles:
            x ^= a
        if max(piles) == 1:
            out.append("John" if n % 2 == 0 else "Brother")
        else:
            out.append("John" if x else "Brother")
    print("\n".join(out))


main()
