// Reference solver for `anti-nim` (HDU 1907 John): misère Nim.
// Anti-SG (SJ) theorem for Nim: the first player wins iff
//   every pile is 1 and the number of piles is even, or
//   some pile is larger than 1 and the XOR of the piles is non-zero.
use std::io::{self, Read, Write};

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
        let n = nums.next().unwrap() as usize;
        let mut x = 0u64;
        let mut big = false;
        for _ in 0..n {
            let a = nums.next().unwrap();
            x ^= a;
            big |= a > 1;
        }
        let first_wins = if big { x != 0 } else { n % 2 == 0 };
        out.push_str(if first_wins { "John\n" } else { "Brother\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
