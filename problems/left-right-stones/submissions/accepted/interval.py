# Interval DP over lengths, keeping only the previous length: lf[i] / rg[i] are the
# pile sizes that make (x, a_i..a_j) / (a_i..a_j, x) losing for the player to move.
# Each length is one pass of list comprehensions (the loop body of the DP inline).
import sys


def main():
    d = sys.stdin.buffer.read().split()
    t = int(d[0])
    p = 1
    out = []
    for _ in range(t):
        n = int(d[p])
        p += 1
        a = list(map(int, d[p:p + n]))
        p += n
        if n == 1:
            out.append("1")
            continue
        lf = a[:]
        rg = a[:]
        for ln in range(2, n):
            # lf for [i, j], j = i + ln - 1, from lf/rg of [i, j - 1] and x = a[j]
            nl = [0 if R == x else x if (x < L and x < R) or (x > L and x > R)
                  else x - 1 if L > R else x + 1
                  for L, R, x in zip(lf, rg, a[ln - 1:])]
            # rg for [i, j], from lf/rg of [i + 1, j] and x = a[i]
            nr = [0 if L == x else x if (x < L and x < R) or (x > L and x > R)
                  else x - 1 if R > L else x + 1
                  for L, R, x in zip(lf[1:], rg[1:], a)]
            lf = nl
            rg = nr
        out.append("0" if lf[1] == a[0] else "1")
    print("\n".join(out))


main()
