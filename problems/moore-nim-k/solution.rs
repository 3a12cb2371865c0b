// Reference solver for `moore-nim-k`: Moore's Nim_k.
// A move takes stones from at least 1 and at most k piles. Moore (1910): the
// position is a loss for the player to move iff, for every bit position, the
// number of piles having that bit set is a multiple of k + 1.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')));
    let n = nums.next().unwrap() as usize;
    let k = nums.next().unwrap();
    let mut count = [0u64; 64];
    for _ in 0..n {
        let a = nums.next().unwrap();
        for (b, c) in count.iter_mut().enumerate() {
            *c += (a >> b) & 1;
        }
    }
    let lose = count.iter().all(|&c| c % (k + 1) == 0);
    let out = if lose { "No\n" } else { "Yes\n" };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
