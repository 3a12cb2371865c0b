// Generator for `merge-stones`. Arguments (key=value):
//   t=<cases>                     number of test cases (1..=100)
//   mode=random   nmin=1 nmax=50 min=1 max=1000 ones=0 twos=0
//                 each pile is 1 with probability ones%, else 2 with probability twos%,
//                 else uniform in min..=max
//   mode=allones  nmin=1 nmax=50  case i has nmin+i-1 piles of size 1 (cycling back to nmin)
//   mode=onesbig  nmin=1 nmax=50 min=2 max=2  a random number of 1-piles (0..n-1) plus
//                 the rest of the n piles uniform in min..=max
//   mode=single   min=1 max=1000  one pile per case, uniform in min..=max
//   mode=same     n=50 value=1000 every case: n piles of the same size
//   balance=1     (random / onesbig) redraw each case until the answers alternate,
//                 starting with YES or NO at random
//   first=yes|no  with balance=1: the answer of the first case
// Output: `T`, then per case `N` and the N pile sizes on one line.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

// The first player's result (closed form of the solution's (a, b) game; only
// used to balance the answers).
fn first_wins(piles: &[u64]) -> bool {
    let a = piles.iter().filter(|&&x| x == 1).count();
    let big: Vec<u64> = piles.iter().copied().filter(|&x| x > 1).collect();
    let b = if big.is_empty() {
        0
    } else {
        big.len() as u64 + big.iter().sum::<u64>() - 1
    };
    match a % 6 {
        0 => b % 2 == 1,
        1 | 5 => true,
        2 => b == 0 || b == 2 || b % 2 == 1,
        3 => b >= 3,
        _ => b <= 3 || b % 2 == 1,
    }
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let t: usize = args.get("t", 1);
    assert!((1..=100).contains(&t));
    let nmin: u64 = args.get("nmin", 1);
    let nmax: u64 = args.get("nmax", 50);
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", 1000);
    let mode = args.str("mode", "random").to_string();
    let balance = args.get("balance", 0u8) == 1;
    let first_yes = match args.str("first", "") {
        "yes" => true,
        "no" => false,
        _ => rng.chance(1, 2),
    };
    let mut out = format!("{t}\n");
    for i in 0..t {
        let want = first_yes == (i % 2 == 0);
        let mut piles: Vec<u64> = Vec::new();
        for _attempt in 0..10_000 {
            piles = match mode.as_str() {
                "random" => {
                    let n = rng.range(nmin, nmax);
                    let ones: u64 = args.get("ones", 0);
                    let twos: u64 = args.get("twos", 0);
                    (0..n)
                        .map(|_| {
                            if rng.chance(ones, 100) {
                                1
                            } else if rng.chance(twos, 100) {
                                2
                            } else {
                                rng.range(lo, hi)
                            }
                        })
                        .collect()
                }
                "allones" => {
                    let n = nmin + (i as u64) % (nmax - nmin + 1);
                    vec![1; n as usize]
                }
                "onesbig" => {
                    let n = rng.range(nmin, nmax);
                    let a = rng.range(0, n - 1);
                    let mut v: Vec<u64> = (0..n)
                        .map(|j| if j < a { 1 } else { rng.range(lo.max(2), hi) })
                        .collect();
                    rng.shuffle(&mut v);
                    v
                }
                "single" => vec![rng.range(lo, hi)],
                "same" => vec![args.get("value", 1000u64); args.get("n", 50usize)],
                other => panic!("unknown mode={other}"),
            };
            if !balance || first_wins(&piles) == want {
                break;
            }
        }
        assert!((1..=50).contains(&piles.len()));
        assert!(piles.iter().all(|&x| (1..=1000).contains(&x)));
        out.push_str(&format!("{}\n", piles.len()));
        let line: Vec<String> = piles.iter().map(|x| x.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    print!("{out}");
}
