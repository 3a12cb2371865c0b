import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1:1 + n]]
    top = max(a)
    sg = [0] * (top + 1)
    for x in range(1, top + 1):
        seen = set()
        for p in range(x):
            sp = sg[p]
            for q in range(p + 1):
                seen.add(sp ^ sg[q])
        m = 0
        while m in seen:
            m += 1
        sg[x] = m
    res = 0
    for x in a:
        res ^= sg[x]
    print("Yes" if res else "No")


main()
