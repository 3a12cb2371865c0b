import sys


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    s = sorted(int(x) for x in data[1:1 + k])
    n = int(data[1 + k])
    h = [int(x) for x in data[2 + k:2 + k + n]]
    top = max(h)
    sg = [0] * (top + 1)
    for x in range(1, top + 1):
        seen = set()
        for v in s:
            if v > x:
                break
            seen.add(sg[x - v])
        m = 0
        while m in seen:
            m += 1
        sg[x] = m
    res = 0
    for x in h:
        res ^= sg[x]
    print("Yes" if res else "No")


main()
