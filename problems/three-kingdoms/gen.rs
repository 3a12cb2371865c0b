// Generator for three-kingdoms.
//   n=<N> [min=0] [max=1000000000]   N generals; the N(N-1)/2 values are distinct, drawn from
//                                    min..=max (a permutation of that range when it is exactly
//                                    large enough)
//   [shape=random|disjoint|at|matching] [at=<general, 1-based>]  where the largest values go:
//     random   : anywhere
//     disjoint : the two largest values on two pairs with no general in common (so the answer is
//                not the second largest value overall)
//     at       : the two largest values both on pairs of general `at` (its row alone holds the answer)
//     matching : the N/2 largest values on a perfect matching (each is the top pair of both its
//                generals; the answer is only the (N/2 + 1)-th largest value)
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};
use std::fmt::Write;

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let n: usize = args.get("n", 6);
    assert!(n >= 4 && n % 2 == 0);
    let m = n * (n - 1) / 2;
    let lo: u64 = args.get("min", 0);
    let hi: u64 = args.get("max", 1_000_000_000);
    let mut vals: Vec<u64> = if hi - lo + 1 == m as u64 {
        (lo..=hi).collect()
    } else {
        rng.distinct(m, lo, hi)
    };
    vals.sort_unstable_by(|a, b| b.cmp(a));

    // Pairs in the order they receive values, largest first.
    let mut order: Vec<(usize, usize)> = Vec::new();
    let mut used = vec![vec![false; n]; n];
    let mut take = |order: &mut Vec<(usize, usize)>, a: usize, b: usize| {
        let (a, b) = (a.min(b), a.max(b));
        assert!(a != b && !used[a][b]);
        used[a][b] = true;
        order.push((a, b));
    };
    let mut gens: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut gens);
    match args.str("shape", "random") {
        "random" => {}
        "disjoint" => {
            take(&mut order, gens[0], gens[1]);
            take(&mut order, gens[2], gens[3]);
        }
        "at" => {
            let g: usize = args.get::<usize>("at", 1) - 1;
            let others: Vec<usize> = gens.iter().copied().filter(|&x| x != g).collect();
            take(&mut order, g, others[0]);
            take(&mut order, g, others[1]);
        }
        "matching" => {
            for k in 0..n / 2 {
                take(&mut order, gens[2 * k], gens[2 * k + 1]);
            }
        }
        other => panic!("unknown shape {other}"),
    }
    let mut rest: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if !used[i][j] {
                rest.push((i, j));
            }
        }
    }
    rng.shuffle(&mut rest);
    order.extend(rest);

    let mut v = vec![vec![0u64; n]; n];
    for (&(a, b), &x) in order.iter().zip(&vals) {
        v[a][b] = x;
    }
    let mut out = String::new();
    writeln!(out, "{n}").unwrap();
    for i in 0..n - 1 {
        let line: Vec<String> = (i + 1..n).map(|j| v[i][j].to_string()).collect();
        writeln!(out, "{}", line.join(" ")).unwrap();
    }
    print!("{out}");
}
