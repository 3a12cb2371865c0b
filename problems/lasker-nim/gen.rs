// Generator for `lasker-nim`. Arguments (key=value):
//   T=<tests>                number of test cases (default 1)
//   n=<N> | nmin= nmax=      pile count per case (default 1..=10)
//   min=1 max=2147483647     pile size range
//   kinds=k1,k2,...          each case picks one kind uniformly (default random,win,lose):
//     random     uniform piles
//     win        XOR of SG values != 0                          (Alice)
//     lose       XOR of SG values == 0, needs N >= 2             (Bob)
//     nim-lose   SG XOR == 0 but the plain pile XOR != 0        (Bob)
//     nim-win    plain pile XOR == 0 but SG XOR != 0            (Alice)
//     top-odd    an odd number of piles 2^31-1, the rest uniform (Alice; SG XOR >= 2^31)
//     top-even   an even number (>= 2) of piles 2^31-1, the rest with SG XOR 0 (Bob)
//     top-kept   an odd number of piles 2^31-1, the rest (>= 2 piles) with SG XOR exactly
//                2^31-1 (Alice: SG XOR 2^31 + (2^31-1)); SG(2^31-1) kept at 2^31-1 sees 0
//   first=<kind>             kind of the first case
//   bits=LO-HI               instead of kinds: case i has SG XOR exactly 2^(LO + i mod (HI-LO+1))
//                            (Alice); about a quarter of the other piles are 2^31-1, so bit 31
//                            is in play; a XOR kept in fewer bits sees 0
// The plan keeps T * nmax <= 10^6 (the bound on the total N of a file).
// Output: T, then per case `N` on a line and the N piles on the next line.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

const TOP: u64 = 2_147_483_647;

fn sg(x: u64) -> u64 {
    // Lasker's Nim; an involution on the positive integers (swaps 4k+3 and 4k+4).
    match x % 4 {
        0 => x - 1,
        3 => x + 1,
        _ => x,
    }
}

fn sg_xor(v: &[u64]) -> u64 {
    v.iter().fold(0, |a, &b| a ^ sg(b))
}

fn nim_xor(v: &[u64]) -> u64 {
    v.iter().fold(0, |a, &b| a ^ b)
}

struct Cfg {
    nmin: u64,
    nmax: u64,
    lo: u64,
    hi: u64,
}

fn make(rng: &mut Rng, c: &Cfg, kind: &str) -> Vec<u64> {
    for _attempt in 0..1_000_000 {
        let need2 = matches!(kind, "lose" | "nim-lose" | "nim-win" | "top-even") || kind.starts_with("bit");
        let need3 = kind == "top-kept";
        let least = if need3 { 3 } else if need2 { 2 } else { 1 };
        let n = rng.range(c.nmin.max(least), c.nmax) as usize;
        let mut v: Vec<u64> = Vec::with_capacity(n);
        match kind {
            "random" | "win" => v.extend((0..n).map(|_| rng.range(c.lo, c.hi))),
            "lose" | "nim-lose" => {
                v.extend((0..n - 1).map(|_| rng.range(c.lo, c.hi)));
                let x = sg_xor(&v);
                if x == 0 {
                    continue;
                }
                v.push(sg(x)); // sg(sg(x)) = x cancels the XOR
            }
            "nim-win" => {
                v.extend((0..n - 1).map(|_| rng.range(c.lo, c.hi)));
                v.push(nim_xor(&v));
            }
            "top-odd" => {
                let mut k = rng.range(1, n as u64) as usize;
                if k % 2 == 0 {
                    k -= 1;
                }
                v.extend(std::iter::repeat(TOP).take(k));
                v.extend((k..n).map(|_| rng.range(c.lo, c.hi)));
            }
            "top-even" => {
                // k copies of 2^31-1 (k even, >= 2) and n - k other piles with SG XOR 0
                // (so n - k is 0 or at least 2).
                let ks: Vec<usize> = (2..=n).filter(|&k| k % 2 == 0 && n - k != 1).collect();
                if ks.is_empty() {
                    continue;
                }
                let k = *rng.pick(&ks);
                v.extend(std::iter::repeat(TOP).take(k));
                if n > k {
                    v.extend((k..n - 1).map(|_| rng.range(c.lo, c.hi)));
                    let x = sg_xor(&v);
                    if x == 0 {
                        continue;
                    }
                    v.push(sg(x));
                }
            }
            "top-kept" => {
                // k copies of 2^31-1 (k odd) and n - k >= 2 other piles whose SG
                // values XOR to 2^31-1: the last one has SG x ^ (2^31-1) for the
                // XOR x of the ones before it (one pile alone would need SG
                // 2^31-1, that is 2^31 stones).
                let mut k = rng.range(1, n as u64 - 2) as usize;
                if k % 2 == 0 {
                    k -= 1;
                }
                v.extend(std::iter::repeat(TOP).take(k));
                v.extend((k..n - 1).map(|_| rng.range(c.lo, c.hi.min(TOP - 1))));
                let target = sg_xor(&v[k..]) ^ TOP;
                if target == 0 || sg(target) > TOP - 1 {
                    continue;
                }
                v.push(sg(target));
                debug_assert_eq!(sg_xor(&v[k..]), TOP);
            }
            bit if bit.starts_with("bit") => {
                let b: u32 = bit[3..].parse().expect("bit<b>");
                v.extend((0..n - 1).map(|_| if rng.chance(1, 4) { TOP } else { rng.range(c.lo, c.hi) }));
                let target = sg_xor(&v) ^ (1u64 << b);
                if target == 0 || target > TOP + 1 {
                    continue;
                }
                v.push(sg(target));
                assert_eq!(sg_xor(&v), 1u64 << b);
            }
            other => panic!("unknown kind {other}"),
        }
        // Every pile in 1..=2^31-1, and within min..=max unless it is a forced 2^31-1.
        if v.iter().any(|&p| p == 0 || p > TOP || (p != TOP && (p < c.lo || p > c.hi))) {
            continue;
        }
        let ok = match kind {
            "top-kept" => {
                let tops = v.iter().filter(|&&p| p == TOP).count();
                let rest: Vec<u64> = v.iter().copied().filter(|&p| p != TOP).collect();
                tops % 2 == 1 && sg_xor(&rest) == TOP
            }
            "win" | "nim-win" | "top-odd" => sg_xor(&v) != 0 && (kind != "nim-win" || nim_xor(&v) == 0),
            "lose" | "top-even" => sg_xor(&v) == 0,
            "nim-lose" => sg_xor(&v) == 0 && nim_xor(&v) != 0,
            _ => true,
        };
        if ok {
            rng.shuffle(&mut v);
            return v;
        }
    }
    panic!("could not build a case of kind {kind}");
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let (nmin, nmax) = plan::size_range(&args, 1, 10);
    let cfg = Cfg { nmin, nmax, lo: args.get("min", 1), hi: args.get("max", TOP) };
    let out = plan::cases(&args, &mut rng, "random,win,lose", |rng, kind| make(rng, &cfg, kind));
    print!("{out}");
}
