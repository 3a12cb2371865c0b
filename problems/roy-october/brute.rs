// Brute force for roy-october: a win/lose table over all pile sizes up to the largest n of
// the input, trying every legal move (1 and every prime power p^k not above the pile).
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_ascii_whitespace().map(|x| x.parse().unwrap()).collect();
    let t = v[0];
    let ns = &v[1..1 + t];
    let top = *ns.iter().max().unwrap();
    if top > 20_000 {
        std::process::exit(3);
    }
    // moves: 1 and the prime powers up to top, found by trial division
    let mut moves = vec![1usize];
    for x in 2..=top {
        let mut p = 2;
        while x % p != 0 {
            p += 1;
        }
        // p is the smallest prime factor of x; x is a prime power iff only p divides it
        let mut y = x;
        while y % p == 0 {
            y /= p;
        }
        if y == 1 {
            moves.push(x);
        }
    }
    let mut win = vec![false; top + 1];
    for n in 1..=top {
        win[n] = moves.iter().take_while(|&&m| m <= n).any(|&m| !win[n - m]);
    }
    let mut out = String::new();
    for &n in ns {
        out.push_str(if win[n] { "October wins!\n" } else { "Roy wins!\n" });
    }
    print!("{}", out);
}
