// Generator for `georgia-bob`. Arguments (key=value):
//   T=<tests>                number of test cases (default 1)
//   n=<N> | nmin= nmax=      pieces per case (default 1..=1000)
//   parity=any|odd|even      restrict N's parity
//   maxp=10000               largest cell
//   gap=<g>                  largest gap between neighbours for built kinds
//                            (default: about 1.8 * (maxp - N) / N, at least 1)
//   zero=<percent>           chance that a built gap is 0 (adjacent pieces), default 20
//   kinds=k1,k2,...          each case picks one kind uniformly (default random,win,lose):
//     random   N distinct cells uniform in 1..=maxp
//     win      built from random gaps, pair-gap XOR != 0     (Georgia)
//     lose     built from random gaps, pair-gap XOR == 0     (Bob)
//     packed   N adjacent pieces starting at a random cell
//   first=<kind>             kind of the first case
//   bits=LO-HI               instead of kinds: case i is built from random gaps with
//                            pair-gap XOR exactly 2^(LO + i mod (HI-LO+1)) (Georgia); a XOR
//                            kept in fewer bits sees 0
//   order=shuffled|sorted|reversed   order of the cells in the input (default shuffled)
// Output: T, then per case `N` on a line and the N cells on the next line.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

// XOR of the gaps inside the pairs (p1,p2), (p3,p4), ... after adding a wall
// piece at 0 for odd N; cells sorted.
fn pair_xor(sorted: &[u64]) -> u64 {
    let mut p = sorted.to_vec();
    if p.len() % 2 == 1 {
        p.insert(0, 0);
    }
    p.chunks(2).fold(0, |a, c| a ^ (c[1] - c[0] - 1))
}

struct Cfg {
    nmin: u64,
    nmax: u64,
    parity: String,
    maxp: u64,
    gap: Option<u64>,
    zero: u64,
}

fn pick_n(rng: &mut Rng, c: &Cfg) -> u64 {
    loop {
        let n = rng.range(c.nmin, c.nmax);
        let ok = match c.parity.as_str() {
            "odd" => n % 2 == 1,
            "even" => n % 2 == 0,
            _ => true,
        };
        if ok {
            return n;
        }
    }
}

fn make(rng: &mut Rng, c: &Cfg, kind: &str) -> Vec<u64> {
    for _attempt in 0..1_000_000 {
        let n = pick_n(rng, c);
        let v: Vec<u64> = match kind {
            "random" => {
                let mut v = rng.distinct(n as usize, 1, c.maxp);
                v.sort_unstable();
                v
            }
            "packed" => {
                let s = rng.range(1, c.maxp - n + 1);
                (s..s + n).collect()
            }
            k if k == "win" || k == "lose" || k.starts_with("bit") => {
                let gmax = c.gap.unwrap_or(((c.maxp - n) * 9 / (5 * n)).max(1));
                let mut g: Vec<u64> = (0..n)
                    .map(|_| if rng.chance(c.zero, 100) { 0 } else { rng.range(1, gmax) })
                    .collect();
                if kind != "win" {
                    // The pair gaps are g[n-1], g[n-3], ... (0-based); fix the first one
                    // so that their XOR is 0 (lose) or 2^b (bit<b>).
                    let want = match kind.strip_prefix("bit") {
                        Some(b) => 1u64 << b.parse::<u32>().expect("bit<b>"),
                        None => 0,
                    };
                    let idx: Vec<usize> = (0..n as usize).rev().step_by(2).collect();
                    let x = idx[1..].iter().fold(0, |a, &i| a ^ g[i]);
                    g[idx[0]] = x ^ want;
                }
                let mut v = Vec::with_capacity(n as usize);
                let mut at = 0;
                for gi in g {
                    at += gi + 1;
                    v.push(at);
                }
                v
            }
            other => panic!("unknown kind {other}"),
        };
        if v[v.len() - 1] > c.maxp {
            continue;
        }
        let ok = match kind {
            "win" => pair_xor(&v) != 0,
            "lose" => pair_xor(&v) == 0,
            k if k.starts_with("bit") => pair_xor(&v) == 1 << k[3..].parse::<u32>().unwrap(),
            _ => true,
        };
        if ok {
            return v;
        }
    }
    panic!("could not build a case of kind {kind}");
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let (nmin, nmax) = plan::size_range(&args, 1, 1000);
    let cfg = Cfg {
        nmin,
        nmax,
        parity: args.str("parity", "any").to_string(),
        maxp: args.get("maxp", 10_000),
        gap: if args.has("gap") { Some(args.get("gap", 1u64)) } else { None },
        zero: args.get("zero", 20),
    };
    let order = args.str("order", "shuffled").to_string();
    let out = plan::cases(&args, &mut rng, "random,win,lose", |rng, kind| {
        let mut v = make(rng, &cfg, kind);
        match order.as_str() {
            "sorted" => {}
            "reversed" => v.reverse(),
            "shuffled" => rng.shuffle(&mut v),
            other => panic!("unknown order={other}"),
        }
        v
    });
    print!("{out}");
}
