// Reference solution for `jump-chess` (Luogu P2575 / HDU 5724 Chess).
// Rows never interact, so the board is a sum of games: XOR the Sprague-Grundy
// values of the rows. A row is a 20-bit mask (column p -> bit 20 - p, so a piece
// moves towards the low bits); its SG value is the mex over its moves. Every
// move lowers the mask as a number, so one pass over all 2^20 masks in
// increasing order fills the table (about 10^7 steps, once).
use std::io::{self, Read, Write};

const COLS: u32 = 20;

fn main() {
    let size = 1usize << COLS;
    let mut sg = vec![0u8; size];
    for mask in 1..size as u32 {
        let mut seen = 0u32;
        let mut rest = mask;
        while rest != 0 {
            let b = 31 - rest.leading_zeros(); // a piece at bit b
            rest &= !(1 << b);
            let empty_below = !mask & ((1u32 << b) - 1);
            if empty_below != 0 {
                // next cell, or the first empty cell after the block
                let j = 31 - empty_below.leading_zeros();
                let next = mask & !(1 << b) | (1 << j);
                seen |= 1 << sg[next as usize];
            }
        }
        sg[mask as usize] = (!seen).trailing_zeros() as u8;
    }

    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let mut x = 0u8;
        for _ in 0..n {
            let m = it.next().unwrap();
            let mut mask = 0u32;
            for _ in 0..m {
                let p = it.next().unwrap();
                mask |= 1 << (COLS - p);
            }
            x ^= sg[mask as usize];
        }
        out.push_str(if x != 0 { "YES\n" } else { "NO\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
