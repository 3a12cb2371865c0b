import sys


def main():
    data = sys.stdin.buffer.read().split()
    u = int(data[0])
    p = 1
    out = []
    for _ in range(u):
        n = int(data[p]); p += 1
        a = [0] + [int(x) for x in data[p:p + n]]
        p += n
        x = 0
        i = n
        while i >= 1:
            x ^= a[i] - a[i - 1]
            i -= 2
        out.append("TAK" if x else "NIE")
    print("\n".join(out))


main()
