import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    # SG of a pile x: x - 1 if x % 4 == 0, x + 1 if x % 4 == 3, x otherwise.
    fix = (-1, 0, 0, 1)
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        x = 0
        for v in map(int, data[pos:pos + n]):
            x ^= v + fix[v & 3]
        pos += n
        out.append("Alice" if x else "Bob")
    sys.stdout.write("\n".join(out) + "\n")


main()
