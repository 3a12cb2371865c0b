# Plays Nim by the XOR rule, flushing after every line.
import sys


def main():
    t = int(sys.stdin.readline())
    for _ in range(t):
        n = int(sys.stdin.readline())
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
                for i in range(n):
                    if a[i] ^ x < a[i]:
                        print(i + 1, a[i] - (a[i] ^ x), flush=True)
                        a[i] ^= x
                        break
            else:
                i, k = map(int, sys.stdin.readline().split())
                a[i - 1] -= k
            mine = not mine


main()
