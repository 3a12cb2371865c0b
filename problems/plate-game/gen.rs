// Generator for `plate-game`. Arguments (key=value):
//   mode=random  amin=1 amax=100 bmin=1 bmax=100 rmin=1 rmax=100
//                answer=any|first|second   (first: 2r <= min(a, b); second: not)
//   mode=fixed   a=<a> b=<b> r=<r>          exactly that line
// Output: `a b r` and a newline.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let (a, b, r): (u64, u64, u64) = match args.str("mode", "random") {
        "fixed" => (args.get("a", 1), args.get("b", 1), args.get("r", 1)),
        "random" => {
            let (alo, ahi) = (args.get("amin", 1u64), args.get("amax", 100u64));
            let (blo, bhi) = (args.get("bmin", 1u64), args.get("bmax", 100u64));
            let (rlo, rhi) = (args.get("rmin", 1u64), args.get("rmax", 100u64));
            let answer = args.str("answer", "any");
            let mut found = None;
            for _attempt in 0..1_000_000 {
                let a = rng.range(alo, ahi);
                let b = rng.range(blo, bhi);
                let r = rng.range(rlo, rhi);
                let first = 2 * r <= a && 2 * r <= b;
                let ok = match answer {
                    "any" => true,
                    "first" => first,
                    "second" => !first,
                    other => panic!("unknown answer={other}"),
                };
                if ok {
                    found = Some((a, b, r));
                    break;
                }
            }
            found.expect("could not meet the requested answer")
        }
        other => panic!("unknown mode={other}"),
    };
    assert!((1..=100).contains(&a) && (1..=100).contains(&b) && (1..=100).contains(&r));
    println!("{a} {b} {r}");
}
