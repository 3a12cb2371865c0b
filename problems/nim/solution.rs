// Reference solver for `nim` (AcWing 891): Bouton's theorem.
// The first player wins iff the XOR of all pile sizes is non-zero.
// With `--grundy` it prints that XOR, the position's Sprague–Grundy value
// (for `grundy verify`'s game coverage).
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')));
    let n = nums.next().unwrap() as usize;
    let mut x = 0u64;
    for _ in 0..n {
        x ^= nums.next().unwrap();
    }
    if std::env::args().any(|a| a == "--grundy") {
        println!("{x}");
        return;
    }
    let out = if x != 0 { "Yes\n" } else { "No\n" };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
