// Brute force: a win/lose table over the real game, n = 0..max, where a move takes 1 or any prime
// not exceeding the pile. Primes come from trial division (independent of any pattern).
use std::io::{self, Read};

const LIMIT: usize = 20000;

fn is_prime(x: usize) -> bool {
    if x < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= x {
        if x % d == 0 {
            return false;
        }
        d += 1;
    }
    true
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let t = v[0];
    let ns = &v[1..1 + t];
    let max = *ns.iter().max().unwrap();
    if max > LIMIT {
        std::process::exit(3);
    }
    let takes: Vec<usize> = (1..=max).filter(|&x| x == 1 || is_prime(x)).collect();
    // win[k]: the player to move with k stones left wins (0 stones: the previous player took the last).
    let mut win = vec![false; max + 1];
    for k in 1..=max {
        win[k] = takes.iter().take_while(|&&m| m <= k).any(|&m| !win[k - m]);
    }
    let mut out = String::new();
    for &n in ns {
        out.push_str(if win[n] { "October wins!\n" } else { "Roy wins!\n" });
    }
    print!("{out}");
}
