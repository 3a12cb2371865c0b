// Reference solution. Cutting off a 1 x k strip (k >= 2) loses at once (the opponent cuts a 1 x 1
// out of it), so in sensible play every piece only gets cuts that leave both sides at least 2 wide,
// and a piece with no such cut is dead. That is a normal-play sum of pieces:
//   SG(w, h) = mex { SG(i, h) ^ SG(w-i, h) : 2 <= i <= w-2 } ∪ { SG(w, j) ^ SG(w, h-j) : 2 <= j <= h-2 }
// and the first player wins iff SG(W, H) != 0.
use std::io::{self, Read, Write};

const N: usize = 200;

fn main() {
    let mut sg = vec![[0u8; N + 1]; N + 1];
    for w in 2..=N {
        for h in w..=N {
            let mut seen = 0u64;
            for i in 2..=w / 2 {
                seen |= 1 << (sg[i][h] ^ sg[w - i][h]);
            }
            for j in 2..=h / 2 {
                seen |= 1 << (sg[w][j] ^ sg[w][h - j]);
            }
            let m = (!seen).trailing_zeros() as u8;
            sg[w][h] = m;
            sg[h][w] = m;
        }
    }
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0usize, |a, &d| a * 10 + usize::from(d - b'0')))
        .collect();
    let mut out = String::with_capacity(nums.len() * 3);
    for p in nums.chunks_exact(2) {
        out.push_str(if sg[p[0]][p[1]] != 0 { "WIN\n" } else { "LOSE\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
