// Generator for `nim`. Arguments (key=value):
//   mode=random  n=<count> | nmax=<count> (n uniform in 1..=nmax), min=1, max=<value>,
//                answer=any|yes|no|xor   (no: XOR 0, yes: XOR non-zero,
//                xor: XOR equal to xor=<v>), distinct=0|1
//   mode=pairs   n=<count> min= max=   every value appears an even number of times
//                (n even -> XOR 0); with odd n one extra unpaired value is added.
//   mode=same    n=<count> value=<v>   n copies of v
//   bits=LO-HI   with mode=random and a plan count: answer=xor with xor = 2^(LO + seed - 1),
//                one bit per test (a XOR kept in fewer bits sees 0)
// Output: `n`, newline, the piles separated by single spaces, newline.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

fn random_piles(
    rng: &mut Rng,
    n: usize,
    lo: u64,
    hi: u64,
    answer: &str,
    target: u64,
    distinct: bool,
) -> Vec<u64> {
    for _attempt in 0..100_000 {
        let mut v: Vec<u64> = if distinct {
            rng.distinct(n, lo, hi)
        } else {
            (0..n).map(|_| rng.range(lo, hi)).collect()
        };
        let x = v.iter().fold(0, |a, &b| a ^ b);
        match answer {
            "any" => return v,
            "yes" => {
                if x != 0 {
                    return v;
                }
            }
            "no" | "xor" => {
                assert!(n >= 2, "answer=no|xor needs n >= 2");
                // Replace the last pile so that the XOR becomes 0 (or the target).
                let want = if answer == "xor" { target } else { 0 };
                let last = x ^ v[n - 1] ^ want;
                if last < lo || last > hi {
                    continue;
                }
                if distinct && v[..n - 1].contains(&last) {
                    continue;
                }
                v[n - 1] = last;
                return v;
            }
            other => panic!("unknown answer={other}"),
        }
    }
    panic!("could not meet the requested answer");
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
        rng.range(1, args.get("nmax", 1u64)) as usize
    } else {
        args.get("n", 1usize)
    };
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", 1_000_000_000);
    let piles: Vec<u64> = match mode.as_str() {
        "random" => {
            let mut answer = args.str("answer", "any").to_string();
            let mut target: u64 = args.get("xor", 0);
            if let Some(b) = bit_of_test(&args) {
                answer = "xor".into();
                target = 1 << b;
            }
            random_piles(&mut rng, n, lo, hi, &answer, target, args.get("distinct", 0u8) == 1)
        }
        "pairs" => {
            let mut v = Vec::with_capacity(n);
            for _ in 0..n / 2 {
                let x = rng.range(lo, hi);
                v.push(x);
                v.push(x);
            }
            if n % 2 == 1 {
                v.push(rng.range(lo, hi));
            }
            rng.shuffle(&mut v);
            v
        }
        "same" => vec![args.get("value", 1u64); n],
        other => panic!("unknown mode={other}"),
    };
    let mut out = String::with_capacity(n * 11 + 16);
    out.push_str(&format!("{}\n", piles.len()));
    for (i, p) in piles.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&p.to_string());
    }
    out.push('\n');
    print!("{out}");
}
