// Generator for ring-game.
// Arguments (all optional):
//   n=<max N> nmin=<min N>   N uniform in [nmin, n] (nmin defaults to n); 2 <= N <= 20
//   max=<v> min=<v>          non-zero edge values uniform in [min, max] (defaults 1, 30)
//   zeros=<k> zmin=<k>       number of zero edges uniform in [zmin, zeros] (defaults 1, 1)
//   e1=zero|nonzero|any      force edge 1 (default any)
//   en=zero|nonzero|any      force edge N (default any)
//   fwd=odd|even|any         parity of the run of non-zero edges from edge 1 (default any)
//   bwd=odd|even|any         parity of the run of non-zero edges from edge N (default any)
//   ans=yes|no|any           required answer (default any)
//   seed=<anything>
// Candidates are drawn until all constraints hold (the generator panics if none is found).
#[path = "../_common/rng.rs"]
mod rng;

fn parity_ok(want: &str, c: usize) -> bool {
    match want {
        "any" => true,
        "odd" => c % 2 == 1,
        "even" => c % 2 == 0,
        _ => panic!("bad parity {want}"),
    }
}

fn main() {
    let args = rng::Args::from_env();
    let mut r = rng::Rng::from_args(&args);
    let nmax: usize = args.get("n", 20);
    let nmin: usize = args.get("nmin", nmax);
    let vmin: u64 = args.get("min", 1);
    let vmax: u64 = args.get("max", 30);
    let zmax: usize = args.get("zeros", 1);
    let zmin: usize = args.get("zmin", 1.min(zmax));
    let e1 = args.str("e1", "any").to_string();
    let en = args.str("en", "any").to_string();
    let fwd = args.str("fwd", "any").to_string();
    let bwd = args.str("bwd", "any").to_string();
    let ans = args.str("ans", "any").to_string();
    assert!(2 <= nmin && nmin <= nmax && nmax <= 20);
    assert!(1 <= vmin && vmin <= vmax && vmax <= 30);
    assert!(1 <= zmin && zmin <= zmax);
    for _ in 0..100_000 {
        let n = r.range(nmin as u64, nmax as u64) as usize;
        let z = r.range(zmin as u64, zmax.min(n) as u64) as usize;
        let mut e: Vec<u64> = (0..n).map(|_| r.range(vmin, vmax)).collect();
        let mut idx: Vec<usize> = (0..n).collect();
        r.shuffle(&mut idx);
        for &i in idx.iter().take(z) {
            e[i] = 0;
        }
        let ok_end = |want: &str, v: u64| match want {
            "any" => true,
            "zero" => v == 0,
            "nonzero" => v != 0,
            _ => panic!("bad end {want}"),
        };
        if !ok_end(&e1, e[0]) || !ok_end(&en, e[n - 1]) {
            continue;
        }
        let f = e.iter().take_while(|&&x| x != 0).count();
        let b = e.iter().rev().take_while(|&&x| x != 0).count();
        if !parity_ok(&fwd, f) || !parity_ok(&bwd, b) {
            continue;
        }
        let yes = f % 2 == 1 || b % 2 == 1;
        if (ans == "yes" && !yes) || (ans == "no" && yes) {
            continue;
        }
        let line: Vec<String> = e.iter().map(|x| x.to_string()).collect();
        print!("{}\n{}\n", n, line.join(" "));
        return;
    }
    panic!("no input satisfies the constraints");
}
