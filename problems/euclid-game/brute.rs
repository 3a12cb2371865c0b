// Brute force for `euclid-game`: plain minimax over the real game.
// A position is an unordered pair {x, y} of positive integers; a move subtracts
// any positive multiple of the smaller from the larger, keeping it >= 0, and a
// move that produces 0 wins on the spot. The whole table of positions with both
// numbers <= M (M = the largest number in the file) is filled bottom-up, trying
// every multiple. Reach: M <= 3000; beyond that it prints nothing, exit 3.
use std::io::{self, Read};

const REACH: usize = 3000;

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut pairs = Vec::new();
    for c in v.chunks(2) {
        if c[0] == 0 && c[1] == 0 {
            break;
        }
        pairs.push((c[0] as usize, c[1] as usize));
    }
    let m = pairs.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(1);
    if m > REACH {
        std::process::exit(3);
    }
    // win[x][y] for x >= y >= 1: does the player to move win from {x, y}?
    let mut win = vec![Vec::new(); m + 1];
    for x in 1..=m {
        win[x] = vec![false; x + 1];
        for y in 1..=x {
            let mut w = false;
            let mut k = 1;
            while k * y <= x {
                let z = x - k * y; // the larger number after the move
                if z == 0 {
                    w = true; // producing a zero wins at once
                    break;
                }
                // Both z and y are below x here (y == x would give z == 0),
                // so that row of the table is already complete.
                let (hi, lo) = if z >= y { (z, y) } else { (y, z) };
                if !win[hi][lo] {
                    w = true;
                    break;
                }
                k += 1;
            }
            win[x][y] = w;
        }
    }
    let mut out = String::new();
    for (a, b) in pairs {
        let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
        out.push_str(if win[hi][lo] { "Stan wins\n" } else { "Ollie wins\n" });
    }
    print!("{out}");
}
