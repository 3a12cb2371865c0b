// Generator for `split-nim`. Arguments (key=value):
//   mode=random  n=<count> | nmax=<count> (n uniform in nmin..=nmax, nmin=1), min=1 max=100,
//                answer=any|yes|no       (no: XOR of the SG values is 0; needs an
//                                         even n -- a random odd n is lowered by one)
//   mode=same    n=<count> value=<v>     n piles of v
// Output: `n`, newline, the piles separated by single spaces, newline.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

fn sg_table(top: usize) -> Vec<usize> {
    let mut sg = vec![0usize; top + 1];
    for x in 1..=top {
        let mut seen = vec![false; 1024];
        for p in 0..x {
            for q in 0..=p {
                seen[sg[p] ^ sg[q]] = true;
            }
        }
        sg[x] = seen.iter().position(|&b| !b).unwrap();
    }
    sg
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let mut n = plan::size(&args, &mut rng, 1);
    // Every SG value has an odd number of 1 bits, so an odd number of piles
    // never XORs to 0: a losing position needs an even n.
    if args.str("answer", "any") == "no" && n % 2 == 1 {
        assert!(args.has("nmax") && n > 1, "answer=no needs an even n");
        n -= 1;
    }
    let piles: Vec<u64> = match mode.as_str() {
        "random" => {
            let lo: u64 = args.get("min", 1);
            let hi: u64 = args.get("max", 100);
            let sg = sg_table(hi as usize);
            let answer = args.str("answer", "any").to_string();
            let mut found = None;
            for _attempt in 0..100_000 {
                let mut v: Vec<u64> = (0..n).map(|_| rng.range(lo, hi)).collect();
                let x = v.iter().fold(0, |a, &b| a ^ sg[b as usize]);
                match answer.as_str() {
                    "any" => {}
                    "yes" => {
                        if x == 0 {
                            continue;
                        }
                    }
                    "no" => {
                        let need = x ^ sg[v[n - 1] as usize];
                        let fits: Vec<u64> = (lo..=hi).filter(|&h| sg[h as usize] == need).collect();
                        if fits.is_empty() {
                            continue;
                        }
                        v[n - 1] = *rng.pick(&fits);
                    }
                    other => panic!("unknown answer={other}"),
                }
                found = Some(v);
                break;
            }
            found.expect("could not meet the requested answer")
        }
        "same" => vec![args.get("value", 1u64); n],
        other => panic!("unknown mode={other}"),
    };
    let mut out = String::new();
    plan::push_case(&mut out, &piles);
    print!("{out}");
}
