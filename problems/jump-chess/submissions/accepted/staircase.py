import sys


def row_value(mask):
    # mask bit (20 - p) set <=> a piece on column p; bit 0 is the right edge.
    # Staircase view: scanning from the right edge, a block of pieces with an
    # odd number of free cells to its right contributes its length.
    x = 0
    free = 0
    b = 0
    while b < 20:
        if mask >> b & 1:
            length = 0
            while b < 20 and mask >> b & 1:
                length += 1
                b += 1
            if free & 1:
                x ^= length
        else:
            free += 1
            b += 1
    return x


def main():
    lines = sys.stdin.buffer.read().split(b"\n")
    bit = {str(p).encode(): 1 << (20 - p) for p in range(1, 21)}
    get = bit.__getitem__
    cache = {}
    t = int(lines[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(lines[pos])
        pos += 1
        x = 0
        for line in lines[pos:pos + n]:
            parts = line.split()
            mask = sum(map(get, parts[1:]))
            v = cache.get(mask)
            if v is None:
                v = row_value(mask)
                cache[mask] = v
            x ^= v
        pos += n
        out.append("YES" if x else "NO")
    sys.stdout.write("\n".join(out) + "\n")


main()
