// Generator for `euclid-game`. Arguments (key=value):
//   mode=random   count=<pairs> min=1 max=<value> answer=any|stan|ollie|mix
//                 order=rand|desc|asc (asc: the smaller number first)
//   mode=equal    count= max=          pairs a == b
//   mode=fib      count=               consecutive Fibonacci numbers and their
//                                      multiples (every quotient is 1), both orders
//   mode=huge     count=               huge quotients: (2^31-1, 1), (1, 2^31-1),
//                                      (big, small) with small <= 16, padded randomly
//   mode=overflow count= answer=mix    b > 2^30, b < a < 2b: a 32-bit `2*b` wraps
//   mode=multiple count= max=          a is a multiple of b (immediate win)
// Every mode ends the file with the line `0 0`.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

const TOP: u64 = 2_147_483_647; // 2^31 - 1

fn stan_wins(mut a: u64, mut b: u64) -> bool {
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    let mut first = true;
    while !(a % b == 0 || a >= 2 * b) {
        let r = a - b;
        a = b;
        b = r;
        first = !first;
    }
    first
}

fn ordered(rng: &mut Rng, a: u64, b: u64, order: &str) -> (u64, u64) {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    match order {
        "desc" => (hi, lo),
        "asc" => (lo, hi),
        "rand" => {
            if rng.chance(1, 2) {
                (hi, lo)
            } else {
                (lo, hi)
            }
        }
        other => panic!("unknown order={other}"),
    }
}

fn want(rng: &mut Rng, answer: &str) -> Option<bool> {
    match answer {
        "any" => None,
        "stan" => Some(true),
        "ollie" => Some(false),
        "mix" => Some(rng.chance(1, 2)),
        other => panic!("unknown answer={other}"),
    }
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let count: usize = args.get("count", 10);
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", TOP);
    assert!(1 <= lo && lo <= hi && hi <= TOP);
    let order = args.str("order", "rand").to_string();
    let answer = args.str("answer", "any").to_string();
    let mut pairs: Vec<(u64, u64)> = Vec::with_capacity(count);
    match mode.as_str() {
        "random" => {
            while pairs.len() < count {
                let target = want(&mut rng, &answer);
                loop {
                    let a = rng.range(lo, hi);
                    let b = rng.range(lo, hi);
                    if target.map_or(true, |t| stan_wins(a, b) == t) {
                        let p = ordered(&mut rng, a, b, &order);
                        pairs.push(p);
                        break;
                    }
                }
            }
        }
        "equal" => {
            for i in 0..count {
                let a = match i {
                    0 => 1,
                    1 => TOP,
                    _ => rng.range(lo, hi),
                };
                pairs.push((a, a));
            }
        }
        "multiple" => {
            while pairs.len() < count {
                let b = rng.range(lo, hi);
                let kmax = hi / b;
                if kmax < 2 {
                    continue;
                }
                let k = rng.range(2, kmax);
                let p = ordered(&mut rng, k * b, b, &order);
                pairs.push(p);
            }
        }
        "fib" => {
            let mut fib = vec![1u64, 2];
            while fib[fib.len() - 1] + fib[fib.len() - 2] <= TOP {
                let n = fib[fib.len() - 1] + fib[fib.len() - 2];
                fib.push(n);
            }
            // The longest chains first: the two largest Fibonacci pairs.
            let l = fib.len();
            let mut base: Vec<(u64, u64)> = vec![(fib[l - 1], fib[l - 2]), (fib[l - 2], fib[l - 1])];
            base.push((fib[l - 2], fib[l - 3]));
            while base.len() < count {
                let i = rng.range(0, (l - 2) as u64) as usize;
                let (big, small) = (fib[i + 1], fib[i]);
                let k = rng.range(1, TOP / big);
                let p = ordered(&mut rng, k * big, k * small, &order);
                base.push(p);
            }
            base.truncate(count);
            pairs = base;
        }
        "huge" => {
            let fixed = [
                (TOP, 1),
                (1, TOP),
                (TOP, 2),
                (TOP - 1, 1),
                (TOP, TOP - 1),
                (TOP - 1, TOP),
                (2, TOP),
                (TOP, 3),
            ];
            for &p in fixed.iter() {
                if pairs.len() < count {
                    pairs.push(p);
                }
            }
            while pairs.len() < count {
                let small = rng.range(1, 16);
                let big = rng.range(TOP - 1_000_000, TOP);
                let p = ordered(&mut rng, big, small, &order);
                pairs.push(p);
            }
        }
        "overflow" => {
            // b in (2^30, 2^31 - 1), b < a < 2b, b does not divide a: the correct
            // move count depends on the chain, while a 32-bit 2*b wraps negative.
            while pairs.len() < count {
                let target = want(&mut rng, &answer);
                loop {
                    let b = rng.range((1 << 30) + 1, TOP - 1);
                    let a = rng.range(b + 1, TOP);
                    if a >= 2 * b || a % b == 0 {
                        continue;
                    }
                    if target.map_or(true, |t| stan_wins(a, b) == t) {
                        let p = ordered(&mut rng, a, b, &order);
                        pairs.push(p);
                        break;
                    }
                }
            }
        }
        other => panic!("unknown mode={other}"),
    }
    let mut out = String::with_capacity(pairs.len() * 22 + 4);
    for (a, b) in pairs {
        out.push_str(&format!("{a} {b}\n"));
    }
    out.push_str("0 0\n");
    print!("{out}");
}
