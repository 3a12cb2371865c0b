// Generator for `anti-nim`. Arguments (key=value):
//   T=<tests>                number of test cases in the file (default 1)
//   n=<N> | nmin= nmax=      pile count per case (default 1..=47)
//   min=1 max=4747           pile size range for random piles
//   kinds=k1,k2,...          each case picks one kind uniformly (default random,win,lose):
//     random     uniform piles
//     win        some pile > 1 and XOR != 0           (John)
//     lose       some pile > 1 and XOR == 0           (Brother), needs N >= 2
//     ones-odd   all piles 1, odd count                (Brother)
//     ones-even  all piles 1, even count               (John)
//     onebig     exactly one pile > 1, the rest 1      (John)
//     mix        each pile is 1 with probability 1/2, else uniform in max(2,min)..=max
//     mix-lose   as mix, but XOR == 0 with some pile > 1 (Brother)
//   first=<kind>             kind of the first case (default: drawn like the others)
//   bits=LO-HI               instead of kinds: case i has XOR exactly 2^(LO + i mod (HI-LO+1))
//                            with some pile > 1 (John); a XOR kept in fewer bits sees 0
// Output: T, then per case `N` on a line and the N piles on the next line.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

struct Cfg {
    nmin: u64,
    nmax: u64,
    lo: u64,
    hi: u64,
}

fn xor(v: &[u64]) -> u64 {
    v.iter().fold(0, |a, &b| a ^ b)
}

fn pick_n(rng: &mut Rng, lo: u64, hi: u64, parity: Option<u64>) -> u64 {
    assert!(lo <= hi, "empty pile-count range {lo}..={hi}");
    loop {
        let n = rng.range(lo, hi);
        if parity.map_or(true, |p| n % 2 == p) {
            return n;
        }
    }
}

fn mix_pile(rng: &mut Rng, c: &Cfg) -> u64 {
    if rng.chance(1, 2) {
        1
    } else {
        rng.range(c.lo.max(2), c.hi)
    }
}

fn make(rng: &mut Rng, c: &Cfg, kind: &str) -> Vec<u64> {
    for _attempt in 0..1_000_000 {
        let v: Vec<u64> = match kind {
            "random" | "win" => {
                let n = pick_n(rng, c.nmin, c.nmax, None);
                (0..n).map(|_| rng.range(c.lo, c.hi)).collect()
            }
            "lose" | "mix-lose" => {
                let n = pick_n(rng, c.nmin.max(2), c.nmax, None);
                let mut v: Vec<u64> = (0..n - 1)
                    .map(|_| if kind == "lose" { rng.range(c.lo, c.hi) } else { mix_pile(rng, c) })
                    .collect();
                let last = xor(&v);
                if last < c.lo.max(1) || last > c.hi {
                    continue;
                }
                v.push(last);
                v
            }
            "ones-odd" => vec![1; pick_n(rng, c.nmin, c.nmax, Some(1)) as usize],
            "ones-even" => vec![1; pick_n(rng, c.nmin.max(2), c.nmax, Some(0)) as usize],
            "onebig" => {
                let n = pick_n(rng, c.nmin, c.nmax, None);
                let mut v = vec![1; n as usize - 1];
                v.push(rng.range(c.lo.max(2), c.hi));
                v
            }
            "mix" => {
                let n = pick_n(rng, c.nmin, c.nmax, None);
                (0..n).map(|_| mix_pile(rng, c)).collect()
            }
            bit if bit.starts_with("bit") => {
                let b: u32 = bit[3..].parse().expect("bit<b>");
                let n = pick_n(rng, c.nmin.max(2), c.nmax, None);
                let mut v: Vec<u64> = (0..n - 1).map(|_| rng.range(c.lo, c.hi)).collect();
                let last = xor(&v) ^ (1 << b);
                if last < c.lo.max(1) || last > c.hi {
                    continue;
                }
                v.push(last);
                assert_eq!(xor(&v), 1 << b);
                v
            }
            other => panic!("unknown kind {other}"),
        };
        let big = v.iter().any(|&p| p > 1);
        let ok = match kind {
            "win" => big && xor(&v) != 0,
            "lose" | "mix-lose" => big && xor(&v) == 0,
            k if k.starts_with("bit") => big,
            _ => true,
        };
        if ok {
            let mut v = v;
            rng.shuffle(&mut v);
            return v;
        }
    }
    panic!("could not build a case of kind {kind}");
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let (nmin, nmax) = plan::size_range(&args, 1, 47);
    let cfg = Cfg { nmin, nmax, lo: args.get("min", 1), hi: args.get("max", 4747) };
    let out = plan::cases(&args, &mut rng, "random,win,lose", |rng, kind| make(rng, &cfg, kind));
    print!("{out}");
}
