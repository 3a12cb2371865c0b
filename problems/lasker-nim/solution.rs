// Reference solver for `lasker-nim` (HDU 3032 Nim or not Nim?): Lasker's Nim.
// A move either takes stones from one pile or splits a pile into two
// non-empty piles. The SG value of a pile x is
//   x - 1 if x % 4 == 0,  x if x % 4 in {1, 2},  x + 1 if x % 4 == 3,
// and the first player wins iff the XOR of the piles' SG values is non-zero.
// SG(2^31 - 1) = 2^31, so the arithmetic is done in u64.
use std::io::{self, Read, Write};

fn sg(x: u64) -> u64 {
    match x % 4 {
        0 => x - 1,
        3 => x + 1,
        _ => x,
    }
}

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')));
    let t = nums.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = nums.next().unwrap();
        let mut x = 0u64;
        for _ in 0..n {
            x ^= sg(nums.next().unwrap());
        }
        out.push_str(if x != 0 { "Alice\n" } else { "Bob\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
