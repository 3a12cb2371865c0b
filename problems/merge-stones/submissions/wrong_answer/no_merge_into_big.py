# Mistake: forgets the move that merges a 1-pile into one of the big piles.
import sys
from functools import lru_cache

sys.setrecursionlimit(300000)


@lru_cache(maxsize=None)
def win(a, b):
    if a == 0:
        return b % 2 == 1
    if b == 1:
        return win(a + 1, 0)
    if not win(a - 1, b):
        return True
    if b and not win(a, b - 1):
        return True
    if a >= 2 and not win(a - 2, b + 3 if b else 2):
        return True
    return False


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
        out.append("YES" if win(a, b) else "NO")
    print("\n".join(out))


main()
