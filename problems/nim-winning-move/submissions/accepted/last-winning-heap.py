# Names the heap holding the XOR's top bit that comes LAST, and prints the
# move with extra spaces and no final newline: any winning move, any
# whitespace between tokens, is accepted.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        a = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        x = 0
        for v in a:
            x ^= v
        if x == 0:
            out.append("lose")
            continue
        top = 1 << (x.bit_length() - 1)
        i = max(j for j in range(n) if a[j] & top)
        out.append("%d  %d" % (i + 1, a[i] - (a[i] ^ x)))
    sys.stdout.write("\n".join(out))


main()
