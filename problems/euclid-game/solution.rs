// Reference solution for `euclid-game` (POJ 2348 Euclid's Game).
// Order the pair so that a >= b. If b divides a, or a >= 2b, the player to
// move wins; otherwise the only move leads to (b, a - b) and the turn passes.
// Values are below 2^31, so u64 arithmetic never overflows. O(log) per pair.
use std::io::{self, Read, Write};

fn first_player_wins(mut a: u64, mut b: u64) -> bool {
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    let mut mover_is_first = true;
    loop {
        if a % b == 0 || a >= 2 * b {
            return mover_is_first;
        }
        let r = a - b; // 0 < r < b
        a = b;
        b = r;
        mover_is_first = !mover_is_first;
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let mut out = String::new();
    while let (Some(a), Some(b)) = (it.next(), it.next()) {
        if a == 0 && b == 0 {
            break;
        }
        out.push_str(if first_player_wins(a, b) { "Stan wins\n" } else { "Ollie wins\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
