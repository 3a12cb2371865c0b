// Wrong: misreads the jump - a piece may hop over ONE neighbouring piece
// only (like draughts), not over the whole block in front of it.
use std::io::{self, Read};

fn main() {
    let size = 1usize << 20;
    let mut sg = vec![0u8; size];
    for mask in 1..size {
        let mut seen = [false; 32];
        for b in 1..20 {
            if mask >> b & 1 == 0 {
                continue;
            }
            if mask >> (b - 1) & 1 == 0 {
                seen[sg[mask & !(1 << b) | 1 << (b - 1)] as usize] = true;
            } else if b >= 2 && mask >> (b - 2) & 1 == 0 {
                seen[sg[mask & !(1 << b) | 1 << (b - 2)] as usize] = true;
            }
        }
        let mut g = 0;
        while seen[g] {
            g += 1;
        }
        sg[mask] = g as u8;
    }
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<usize>().unwrap());
    let t = it.next().unwrap();
    for _ in 0..t {
        let n = it.next().unwrap();
        let mut x = 0;
        for _ in 0..n {
            let m = it.next().unwrap();
            let mut mask = 0;
            for _ in 0..m {
                mask |= 1 << (20 - it.next().unwrap());
            }
            x ^= sg[mask];
        }
        println!("{}", if x != 0 { "YES" } else { "NO" });
    }
}
