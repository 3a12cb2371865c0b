// Reference solver for `staircase-nim` (AcWing 892).
// Staircase Nim: stones on even-numbered steps are irrelevant (a move from an
// even step can be undone by pushing the same stones one step further down), so
// the game is Nim on the odd-numbered steps 1, 3, 5, ... (1-based).
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
    for step in 1..=n {
        let a = nums.next().unwrap();
        if step % 2 == 1 {
            x ^= a;
        }
    }
    if std::env::args().any(|a| a == "--grundy") {
        println!("{x}");
        return;
    }
    let out = if x != 0 { "Yes\n" } else { "No\n" };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
