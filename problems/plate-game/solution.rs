// Reference solver for `plate-game` (Codeforces 197A Plate Game).
// If one plate fits (diameter 2r within both sides), the first player puts it
// in the exact centre and then answers every plate with its point reflection
// through the centre; otherwise nobody can move and the first player loses.
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let v: Vec<u64> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (a, b, r) = (v[0], v[1], v[2]);
    let out = if 2 * r <= a && 2 * r <= b {
        "First\n"
    } else {
        "Second\n"
    };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
