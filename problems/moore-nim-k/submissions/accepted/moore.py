import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    piles = list(map(int, data[2:2 + n]))
    for b in range(31):
        c = sum((a >> b) & 1 for a in piles)
        if c % (k + 1):
            print("Yes")
            return
    print("No")


main()
