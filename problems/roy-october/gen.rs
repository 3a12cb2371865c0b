// Generator for roy-october.
// Arguments (all optional):
//   t=<count>            number of queries (default 100), 1 <= t <= 100000
//   min=<v> max=<v>      n uniform in [min, max] (defaults 1, 50000000)
//   mode=random|seq|near6|ppow
//       random: n uniform; with probability roy=<pct> (default 30) rounded down to a
//               multiple of 6 (kept >= min when possible)
//       seq:    n = min, min+1, ... (wrapping back to min after max)
//       near6:  6k-1, 6k, 6k+1 around random multiples of 6 in [min, max]
//       ppow:   prime powers and 1 in [min, max] mixed with multiples of 6
//   first=roy|october|any  force the answer of the first query (default any)
//   seed=<anything>
#[path = "../_common/rng.rs"]
mod rng;

fn is_prime_power(x: u64) -> bool {
    if x < 2 {
        return false;
    }
    let mut p = 2;
    while p * p <= x && x % p != 0 {
        p += 1;
    }
    if x % p != 0 {
        return true; // x is prime
    }
    let mut y = x;
    while y % p == 0 {
        y /= p;
    }
    y == 1
}

fn main() {
    let args = rng::Args::from_env();
    let mut r = rng::Rng::from_args(&args);
    let t: usize = args.get("t", 100);
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", 50_000_000);
    let roy: u64 = args.get("roy", 30);
    let mode = args.str("mode", "random").to_string();
    let first = args.str("first", "any").to_string();
    assert!(1 <= t && t <= 100_000 && 1 <= lo && lo <= hi && hi <= 50_000_000);
    let mult6 = |r: &mut rng::Rng| -> u64 {
        // a multiple of 6 in [lo, hi], or a plain value when there is none
        let a = (lo + 5) / 6;
        let b = hi / 6;
        if a <= b {
            6 * r.range(a, b)
        } else {
            r.range(lo, hi)
        }
    };
    let mut ns: Vec<u64> = Vec::with_capacity(t);
    let mut pp: Vec<u64> = Vec::new();
    if mode == "ppow" {
        // all prime powers in range would be too many for large ranges: sample candidates
        // near powers of small primes and random primes
        let mut cands: Vec<u64> = vec![1];
        for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 7069, 7079] {
            let mut x = p;
            while x <= hi {
                cands.push(x);
                x *= p;
            }
        }
        for _ in 0..2000 {
            let x = r.range(lo, hi);
            if is_prime_power(x) {
                cands.push(x);
            }
        }
        pp = cands.into_iter().filter(|&x| x >= lo && x <= hi).collect();
        pp.sort();
        pp.dedup();
        assert!(!pp.is_empty());
    }
    for i in 0..t {
        let n = match mode.as_str() {
            "random" => {
                if r.chance(roy, 100) {
                    mult6(&mut r)
                } else {
                    r.range(lo, hi)
                }
            }
            "seq" => lo + (i as u64) % (hi - lo + 1),
            "near6" => {
                let m = mult6(&mut r);
                let d = r.range(0, 2);
                (m + d).saturating_sub(1).clamp(lo, hi)
            }
            "ppow" => {
                if r.chance(roy, 100) {
                    mult6(&mut r)
                } else {
                    *r.pick(&pp)
                }
            }
            _ => panic!("unknown mode {mode}"),
        };
        ns.push(n);
    }
    match first.as_str() {
        "any" => {}
        "roy" => {
            if ns[0] % 6 != 0 {
                if let Some(k) = ns.iter().position(|&x| x % 6 == 0) {
                    ns.swap(0, k);
                } else {
                    ns[0] = mult6(&mut r);
                }
            }
            assert!(ns[0] % 6 == 0);
        }
        "october" => {
            if ns[0] % 6 == 0 {
                if let Some(k) = ns.iter().position(|&x| x % 6 != 0) {
                    ns.swap(0, k);
                } else {
                    ns[0] = if ns[0] > lo { ns[0] - 1 } else { ns[0] + 1 };
                }
            }
            assert!(ns[0] % 6 != 0);
        }
        _ => panic!("unknown first {first}"),
    }
    let mut out = String::with_capacity(t * 10);
    out.push_str(&format!("{}\n", t));
    for n in ns {
        out.push_str(&format!("{}\n", n));
    }
    print!("{}", out);
}
