// Generator for `staircase-nim`. Arguments (key=value):
//   mode=random  n=<count> | nmax=<count> (n uniform in nmin..=nmax, nmin=1)
//                min=1 max=10^9          range of the odd-numbered steps
//                emin=<min> emax=<max>   range of the even-numbered steps
//                odd=any|zero|nonzero|value  XOR of a_1, a_3, a_5, ... (1-based);
//                                        value: equal to oddxor=<v>
//                even=any|zero|nonzero   XOR of a_2, a_4, a_6, ...
//   mode=same    n=<count> value=<v>     every step holds v stones
//   bits=LO-HI   with mode=random and a plan count: odd=value with oddxor = 2^(LO + seed - 1),
//                one bit per test (a XOR kept in fewer bits sees 0)
// Output: `n`, newline, a_1..a_n separated by single spaces, newline.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

/// `k` values in `lo..=hi` whose XOR is zero, non-zero, `target` or unconstrained.
fn class(rng: &mut Rng, k: usize, lo: u64, hi: u64, want: &str, target: u64) -> Vec<u64> {
    if k == 0 {
        assert!(want != "nonzero", "no step in this class");
        return Vec::new();
    }
    for _attempt in 0..100_000 {
        let mut v: Vec<u64> = (0..k).map(|_| rng.range(lo, hi)).collect();
        let x = v.iter().fold(0, |a, &b| a ^ b);
        match want {
            "any" => return v,
            "nonzero" => {
                if x != 0 {
                    return v;
                }
            }
            "zero" | "value" => {
                assert!(k >= 2, "XOR 0 needs two steps of the class");
                let want_x = if want == "value" { target } else { 0 };
                let last = x ^ v[k - 1] ^ want_x;
                if last >= lo && last <= hi {
                    v[k - 1] = last;
                    return v;
                }
            }
            other => panic!("unknown constraint {other}"),
        }
    }
    panic!("could not meet the constraint {want}");
}


/// With `bits=LO-HI` and a plan `count` (which appends `seed=1`, `seed=2`, ...): the
/// bit this test is about, LO + seed - 1 (the count must not exceed HI - LO + 1).
fn bit_of_test(args: &Args) -> Option<u32> {
    let (lo, hi) = args.str("bits", "").split_once('-')?;
    let (lo, hi): (u32, u32) = (lo.parse().expect("LO"), hi.parse().expect("HI"));
    let b = lo + args.get("seed", 1u32) - 1;
    assert!(lo <= b && b <= hi && hi < 63, "bits={lo}-{hi} with this seed gives bit {b}");
    Some(b)
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let n: usize = if args.has("nmax") {
        rng.range(args.get("nmin", 1u64), args.get("nmax", 1u64)) as usize
    } else {
        args.get("n", 1usize)
    };
    let a: Vec<u64> = match mode.as_str() {
        "random" => {
            let lo: u64 = args.get("min", 1);
            let hi: u64 = args.get("max", 1_000_000_000);
            let elo: u64 = args.get("emin", lo);
            let ehi: u64 = args.get("emax", hi);
            let odd = match bit_of_test(&args) {
                Some(b) => class(&mut rng, (n + 1) / 2, lo, hi, "value", 1 << b),
                None => class(&mut rng, (n + 1) / 2, lo, hi, args.str("odd", "any"), args.get("oddxor", 0u64)),
            };
            let even = class(&mut rng, n / 2, elo, ehi, args.str("even", "any"), 0);
            (0..n)
                .map(|i| if i % 2 == 0 { odd[i / 2] } else { even[i / 2] })
                .collect()
        }
        "same" => vec![args.get("value", 1u64); n],
        other => panic!("unknown mode={other}"),
    };
    let mut out = String::with_capacity(n * 11 + 16);
    out.push_str(&format!("{n}\n"));
    for (i, x) in a.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&x.to_string());
    }
    out.push('\n');
    print!("{out}");
}
