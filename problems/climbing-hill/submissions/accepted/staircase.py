import sys


def main():
    data = sys.stdin.buffer.read().split()
    p = 0
    out = []
    while p + 1 < len(data):
        n = int(data[p]); k = int(data[p + 1]); p += 2
        a = [-1] + [int(x) for x in data[p:p + n]]
        p += n
        if k == 1:
            out.append("Alice")
            continue
        if n % 2 == 1 and k == 2:
            a[0] = 0  # person 1 must stop at distance 1: the top counts as 0
        x = 0
        i = n
        while i >= 1:
            x ^= a[i] - a[i - 1] - 1
            i -= 2
        out.append("Alice" if x else "Bob")
    sys.stdout.write("\n".join(out) + "\n")


main()
