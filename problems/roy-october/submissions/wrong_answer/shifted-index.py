# Wrong: the losing positions were read off a table indexed from 1 instead of 0, so the
# period is right but the phase is off by one.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
res = ["Roy wins!" if (int(x) + 1) % 6 == 0 else "October wins!" for x in data[1:1 + t]]
sys.stdout.write("\n".join(res) + "\n")
