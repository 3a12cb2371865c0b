// Generator for `black-white-chess`. Arguments (key=value):
//   mode=fixed   n= k= d=          exactly that line
//   mode=random  nmin=2 nmax=10000 kmin=2 kmax=100 dmin=1 dmax=100
//                k even in kmin..=min(kmax, n), d in dmin..=min(dmax, k), n in nmin..=nmax
//                (n is drawn first, then k, then d; each range is clipped to be valid)
// Output: `n k d` and a newline.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let (n, k, d): (u64, u64, u64) = match args.str("mode", "random") {
        "fixed" => (args.get("n", 2), args.get("k", 2), args.get("d", 1)),
        "random" => {
            let n = rng.range(args.get("nmin", 2u64), args.get("nmax", 10_000u64));
            let khi = args.get("kmax", 100u64).min(n) / 2;
            let klo = (args.get("kmin", 2u64) + 1) / 2;
            let k = 2 * rng.range(klo, khi);
            let dhi = args.get("dmax", 100u64).min(k);
            let d = rng.range(args.get("dmin", 1u64).min(dhi), dhi);
            (n, k, d)
        }
        other => panic!("unknown mode={other}"),
    };
    assert!(1 <= d && d <= k && k <= n && n <= 10_000 && k % 2 == 0 && k <= 100);
    println!("{n} {k} {d}");
}
