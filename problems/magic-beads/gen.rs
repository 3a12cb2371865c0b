// Generator for magic-beads. Every mode takes [nl=1|0]: whether the last line ends with '\n'.
//   mode=random cases=<C> n=<N> [nmin=N] [min=1] [max=1000] [lose=<percent>] [first=win|lose]
//               C cases of nmin..=N heaps in min..=max; `lose` percent of the cases (default:
//               unconstrained) are second-player wins, made so by choosing the last heap
//   mode=single [lo=1] [hi=1000]      one case per value: a single heap of lo, lo+1, ..., hi
//   mode=primes cases=<C> n=<N> [ones=<percent>]   heaps that are primes (or 1)
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};
use std::fmt::Write;

const MAX: usize = 1000;

/// SG values of single heaps (only used to balance the two answers).
fn sg_table() -> Vec<u32> {
    let mut sg = vec![0u32; MAX + 1];
    for p in 2..=MAX {
        let divs: Vec<usize> = (1..p).filter(|d| p % d == 0).collect();
        let x = divs.iter().fold(0, |acc, &d| acc ^ sg[d]);
        let opts: Vec<u32> = divs.iter().map(|&d| x ^ sg[d]).collect();
        sg[p] = (0..).find(|m| !opts.contains(m)).unwrap();
    }
    sg
}

fn is_prime(x: u64) -> bool {
    x >= 2 && (2..x).take_while(|d| d * d <= x).all(|d| x % d != 0)
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mut cases: Vec<Vec<u64>> = Vec::new();
    match args.str("mode", "random") {
        "random" => {
            let sg = sg_table();
            let c: usize = args.get("cases", 10);
            let nmax: u64 = args.get("n", 100);
            let nmin: u64 = args.get("nmin", nmax);
            let lo: u64 = args.get("min", 1);
            let hi: u64 = args.get("max", MAX as u64);
            let pct: Option<u64> = if args.has("lose") { Some(args.get("lose", 0)) } else { None };
            for k in 0..c {
                let want_lose = match (k, args.str("first", "")) {
                    (0, "win") => Some(false),
                    (0, "lose") => Some(true),
                    _ => pct.map(|p| rng.chance(p, 100)),
                };
                let n = rng.range(nmin, nmax) as usize;
                loop {
                    let mut heaps: Vec<u64> = (0..n).map(|_| rng.range(lo, hi)).collect();
                    let Some(want_lose) = want_lose else {
                        cases.push(heaps);
                        break;
                    };
                    let rest = heaps[..n - 1].iter().fold(0, |acc, &a| acc ^ sg[a as usize]);
                    // The last heap decides: SG(last) == rest makes the total 0.
                    let fits: Vec<u64> =
                        (lo..=hi).filter(|&a| (sg[a as usize] == rest) == want_lose).collect();
                    if !fits.is_empty() {
                        heaps[n - 1] = *rng.pick(&fits);
                        cases.push(heaps);
                        break;
                    }
                }
            }
        }
        "single" => {
            let lo: u64 = args.get("lo", 1);
            let hi: u64 = args.get("hi", MAX as u64);
            cases.extend((lo..=hi).map(|a| vec![a]));
        }
        "primes" => {
            let c: usize = args.get("cases", 10);
            let n: u64 = args.get("n", 100);
            let ones: u64 = args.get("ones", 0);
            let primes: Vec<u64> = (2..=MAX as u64).filter(|&x| is_prime(x)).collect();
            for _ in 0..c {
                let k = rng.range(1, n);
                cases.push(
                    (0..k)
                        .map(|_| if rng.chance(ones, 100) { 1 } else { *rng.pick(&primes) })
                        .collect(),
                );
            }
        }
        other => panic!("unknown mode {other}"),
    }
    let mut out = String::new();
    for heaps in &cases {
        writeln!(out, "{}", heaps.len()).unwrap();
        let line: Vec<String> = heaps.iter().map(|a| a.to_string()).collect();
        writeln!(out, "{}", line.join(" ")).unwrap();
    }
    if args.get("nl", 1u32) == 0 {
        out.pop();
    }
    print!("{out}");
}
