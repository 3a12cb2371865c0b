// Reference solution for ring-game (Luogu P1288 取数游戏II).
// Walk from the coin in each direction counting non-zero edges before the first zero;
// the first player wins iff one of the two counts is odd.
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u32> = s.split_ascii_whitespace().map(|x| x.parse().unwrap()).collect();
    let n = v[0] as usize;
    let e = &v[1..1 + n];
    let fwd = e.iter().take_while(|&&x| x != 0).count();
    let bwd = e.iter().rev().take_while(|&&x| x != 0).count();
    println!("{}", if fwd % 2 == 1 || bwd % 2 == 1 { "YES" } else { "NO" });
}
