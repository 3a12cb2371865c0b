// Generator for `nim`. Arguments (key=value):
//   mode=random  n=<count> | nmax=<count> (n uniform in nmin..=nmax, nmin=1), min=1, max=<value>,
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
#[path = "../_common/plan.rs"]
mod plan;

use plan::Xor;
use rng::{Args, Rng};

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let n = plan::size(&args, &mut rng, 1);
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", 1_000_000_000);
    let piles: Vec<u64> = match mode.as_str() {
        "random" => {
            let want = match (plan::bit_of_test(&args), args.str("answer", "any")) {
                (Some(b), _) => Xor::Is(1 << b),
                (None, "any") => Xor::Any,
                (None, "yes") => Xor::NonZero,
                (None, "no") => Xor::Is(0),
                (None, "xor") => Xor::Is(args.get("xor", 0)),
                (None, other) => panic!("unknown answer={other}"),
            };
            plan::xor_values(&mut rng, n, lo, hi, want, args.get("distinct", 0u8) == 1)
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
    plan::push_case(&mut out, &piles);
    print!("{out}");
}
