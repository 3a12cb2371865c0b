import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for v in data[1:1 + n]:
        x ^= int(v)
    print("Yes" if x else "No")


main()
