// Reference solver for `split-nim` (AcWing 894).
// SG(x) = mex{ SG(p) xor SG(q) : 0 <= q <= p < x }, SG(0) = 0, filled
// bottom-up; the first player wins iff the XOR of SG(a_i) is non-zero.
// SG values exceed x (up to 199 for x <= 100), so the mex marks have room
// for every XOR of two values below 256.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0usize, |acc, &d| acc * 10 + usize::from(d - b'0')));
    let n = nums.next().unwrap();
    let piles: Vec<usize> = (0..n).map(|_| nums.next().unwrap()).collect();
    let top = *piles.iter().max().unwrap();

    let mut sg = vec![0usize; top + 1];
    for x in 1..=top {
        let mut seen = vec![false; 1024];
        for p in 0..x {
            for q in 0..=p {
                seen[sg[p] ^ sg[q]] = true;
            }
        }
        sg[x] = seen.iter().position(|&b| !b).unwrap();
    }
    let x = piles.iter().fold(0, |acc, &a| acc ^ sg[a]);
    let out = if x != 0 { "Yes\n" } else { "No\n" };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
