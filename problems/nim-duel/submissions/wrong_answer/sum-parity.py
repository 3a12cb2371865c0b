# Believes the sum's parity decides: moves first iff the stone count is odd,
# then always takes one stone from the first non-empty pile. Right only
# where every pile holds one stone.
import sys


def main():
    t = int(sys.stdin.readline())
    for _ in range(t):
        sys.stdin.readline()
        a = list(map(int, sys.stdin.readline().split()))
        mine = sum(a) % 2 == 1
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                i = next(j for j in range(len(a)) if a[j] > 0)
                print(i + 1, 1, flush=True)
                a[i] -= 1
            else:
                i, k = map(int, sys.stdin.readline().split())
                a[i - 1] -= k
            mine = not mine


main()
