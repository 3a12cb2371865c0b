// Generator for `nim-duel` (the interactor's input). Arguments (key=value):
//   T=<games> (default 20)
//   n=<piles> | nmin= nmax= (n uniform per game; default 1..=8)
//   min=0 max=100              pile sizes
//   second=<percent>           share of games whose XOR is 0 (the program must
//                              answer `second`); default 50; the others have XOR != 0
//   zeros=<percent>            each pile is 0 with this chance (default 0)
//   zerofirst=1                pile 1 of every game is empty (a program that
//                              plays on the first pile, or 0-based, trips)
// Every game has a non-empty pile; with n = 1 every game is `first`.
// Output: T, per game `n` and the piles, then the seed (a hash of the arguments).
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

fn game(rng: &mut Rng, n: usize, lo: u64, hi: u64, xor_zero: bool, zeros: u64, zerofirst: bool) -> Vec<u64> {
    for _ in 0..100_000 {
        let mut v: Vec<u64> = (0..n)
            .map(|_| if rng.chance(zeros, 100) { 0 } else { rng.range(lo, hi) })
            .collect();
        if zerofirst {
            v[0] = 0;
        }
        let x = v.iter().fold(0, |x, &a| x ^ a);
        if xor_zero {
            // Fix one pile (not a forced-empty first one) so that the XOR is 0.
            let j = rng.range(if zerofirst { 1 } else { 0 }, n as u64 - 1) as usize;
            let want = x ^ v[j];
            if want > hi || (want < lo && want != 0) {
                continue;
            }
            v[j] = want;
        } else if x == 0 {
            continue;
        }
        if v.iter().any(|&a| a > 0) {
            return v;
        }
    }
    panic!("could not make a game with these arguments");
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let t: usize = args.get("T", 20);
    let (nmin, nmax) = plan::size_range(&args, 1, 8);
    let lo: u64 = args.get("min", 0);
    let hi: u64 = args.get("max", 100);
    let second: u64 = args.get("second", 50);
    let zeros: u64 = args.get("zeros", 0);
    let zerofirst = args.get("zerofirst", 0u8) == 1;
    let mut out = format!("{t}\n");
    for _ in 0..t {
        let n = rng.range(nmin, nmax) as usize;
        let zf = zerofirst && n >= 2;
        // XOR 0 needs two piles that may be non-empty.
        let xor_zero = n >= if zf { 3 } else { 2 } && rng.chance(second, 100);
        let v = game(&mut rng, n, lo, hi, xor_zero, zeros, zf);
        plan::push_case(&mut out, &v);
    }
    out.push_str(&plan::seed_line(&args));
    print!("{out}");
}
