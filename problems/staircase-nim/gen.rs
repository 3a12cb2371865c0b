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
#[path = "../_common/plan.rs"]
mod plan;

use plan::Xor;
use rng::{Args, Rng};

/// The XOR a class of steps must have, from `odd=` or `even=`.
fn want(constraint: &str, value: u64) -> Xor {
    match constraint {
        "any" => Xor::Any,
        "nonzero" => Xor::NonZero,
        "zero" => Xor::Is(0),
        "value" => Xor::Is(value),
        other => panic!("unknown constraint {other}"),
    }
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let n = plan::size(&args, &mut rng, 1);
    let a: Vec<u64> = match mode.as_str() {
        "random" => {
            let lo: u64 = args.get("min", 1);
            let hi: u64 = args.get("max", 1_000_000_000);
            let elo: u64 = args.get("emin", lo);
            let ehi: u64 = args.get("emax", hi);
            let odd = match plan::bit_of_test(&args) {
                Some(b) => Xor::Is(1 << b),
                None => want(args.str("odd", "any"), args.get("oddxor", 0u64)),
            };
            let odd = plan::xor_values(&mut rng, (n + 1) / 2, lo, hi, odd, false);
            let even = want(args.str("even", "any"), 0);
            let even = plan::xor_values(&mut rng, n / 2, elo, ehi, even, false);
            (0..n)
                .map(|i| if i % 2 == 0 { odd[i / 2] } else { even[i / 2] })
                .collect()
        }
        "same" => vec![args.get("value", 1u64); n],
        other => panic!("unknown mode={other}"),
    };
    let mut out = String::with_capacity(n * 11 + 16);
    plan::push_case(&mut out, &a);
    print!("{out}");
}
