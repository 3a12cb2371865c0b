# Right strategy, but writes the pile's 0-based index: pile 0 does not exist,
# and any other index names the wrong pile.
import sys


def main():
    t = int(sys.stdin.readline())
    for _ in range(t):
        sys.stdin.readline()
        a = list(map(int, sys.stdin.readline().split()))
        x = 0
        for v in a:
            x ^= v
        mine = x != 0
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                x = 0
                for v in a:
                    x ^= v
                i = next(j for j in range(len(a)) if a[j] ^ x < a[j])
                print(i, a[i] - (a[i] ^ x), flush=True)
                a[i] ^= x
            else:
                i, k = map(int, sys.stdin.readline().split())
                a[i - 1] -= k
            mine = not mine


main()
