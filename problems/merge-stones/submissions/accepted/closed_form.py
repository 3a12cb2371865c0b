import sys


def wins(a, b):
    r = a % 6
    if r == 0:
        return b % 2 == 1
    if r in (1, 5):
        return True
    if r == 2:
        return b in (0, 2) or b % 2 == 1
    if r == 3:
        return b >= 3
    return b <= 3 or b % 2 == 1


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    p = 1
    out = []
    for _ in range(t):
        n = int(data[p])
        piles = list(map(int, data[p + 1:p + 1 + n]))
        p += 1 + n
        a = piles.count(1)
        big = [x for x in piles if x > 1]
        b = len(big) + sum(big) - 1 if big else 0
        out.append("YES" if wins(a, b) else "NO")
    print("\n".join(out))


main()
