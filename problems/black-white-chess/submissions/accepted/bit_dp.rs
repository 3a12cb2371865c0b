use std::io::Read;

const MOD: u64 = 1_000_000_007;

fn pw(mut b: u64, mut e: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % MOD;
        }
        b = b * b % MOD;
        e >>= 1;
    }
    r
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (n, k, d) = (v[0], v[1], v[2]);
    let m = k / 2;
    let mut fact = vec![1u64; n + 1];
    for i in 1..=n {
        fact[i] = fact[i - 1] * i as u64 % MOD;
    }
    let c = |a: usize, b: usize| -> u64 {
        if b > a {
            return 0;
        }
        fact[a] * pw(fact[b], MOD - 2) % MOD * pw(fact[a - b], MOD - 2) % MOD
    };
    // ways[l] = C(m, l(d+1))
    let ways: Vec<u64> = (0..=m / (d + 1)).map(|l| c(m, l * (d + 1))).collect();
    let top = n - k;
    let mut f = vec![0u64; top + 1];
    f[0] = 1;
    let mut step = d + 1;
    while step <= top {
        let mut g = vec![0u64; top + 1];
        for s in (0..=top).step_by(d + 1) {
            if f[s] == 0 {
                continue;
            }
            for (l, &w) in ways.iter().enumerate() {
                let t = s + l * step;
                if t > top {
                    break;
                }
                g[t] = (g[t] + f[s] * w) % MOD;
            }
        }
        f = g;
        step *= 2;
    }
    let mut lose = 0;
    for s in 0..=top {
        if f[s] != 0 {
            lose = (lose + f[s] * c(n - m - s, m)) % MOD;
        }
    }
    println!("{}", (c(n, k) + MOD - lose) % MOD);
}
