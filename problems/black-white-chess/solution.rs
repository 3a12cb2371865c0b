// Reference solver for `black-white-chess` (SDOI2011 黑白棋).
//
// Pair white piece i with black piece i (the i-th white and black from the
// left). White i only moves right and black i only moves left, and neither may
// pass the other, so the only thing that matters is the number of empty cells
// between them: pile i. A turn lowers between 1 and d of the m = k/2 piles, for
// either player: Moore's Nim_d. A position is lost for the player to move iff,
// for every bit, the number of piles with that bit set is a multiple of d + 1.
//
// Count the losing placements: f[s] = number of ways to pick the pile sizes
// bit by bit (at bit j, choose l(d+1) of the m piles to get 2^j stones each, in
// C(m, l(d+1)) ways) with total s. The other m + 1 gaps (before the first pair,
// between pairs, after the last) take the remaining n - k - s cells in
// C(n - k - s + m, m) = C(n - m - s, m) ways. Answer: C(n, k) minus the losing
// placements, modulo 10^9 + 7.
use std::io::{self, Read};

const P: u64 = 1_000_000_007;

fn power(mut b: u64, mut e: u64) -> u64 {
    let mut r = 1;
    b %= P;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % P;
        }
        b = b * b % P;
        e >>= 1;
    }
    r
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, k, d) = (v[0], v[1], v[2]);
    let m = k / 2;
    let mut fact = vec![1u64; n + 1];
    for i in 1..=n {
        fact[i] = fact[i - 1] * i as u64 % P;
    }
    let mut inv = vec![1u64; n + 1];
    inv[n] = power(fact[n], P - 2);
    for i in (1..=n).rev() {
        inv[i - 1] = inv[i] * i as u64 % P;
    }
    let binom = |a: usize, b: usize| -> u64 {
        if b > a {
            0
        } else {
            fact[a] * inv[b] % P * inv[a - b] % P
        }
    };
    let top = n - k; // the largest total of the piles
    let mut f = vec![0u64; top + 1];
    f[0] = 1;
    let mut step = d + 1; // (d+1) * 2^j
    while step <= top {
        let mut g = vec![0u64; top + 1];
        for s in 0..=top {
            if f[s] == 0 {
                continue;
            }
            let mut l = 0;
            while l * (d + 1) <= m && s + l * step <= top {
                g[s + l * step] = (g[s + l * step] + f[s] * binom(m, l * (d + 1))) % P;
                l += 1;
            }
        }
        f = g;
        step *= 2;
    }
    let mut losing = 0u64;
    for s in 0..=top {
        losing = (losing + f[s] * binom(n - m - s, m)) % P;
    }
    println!("{}", (binom(n, k) + P - losing) % P);
}
