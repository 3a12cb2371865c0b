// Generator for left-right-stones.
// Arguments (all optional):
//   t=<tests>            number of test cases (default 10)
//   n=<max n> nmin=<min n>  each case's n is uniform in [nmin, n] (nmin defaults to n)
//   min=<v> max=<v>      pile sizes in [min, max] (defaults 1, 1000000000)
//   mode=random|equal|few|mono
//       random: independent values; equal: one value repeated;
//       few: values drawn from 2-3 distinct values; mono: non-decreasing run
//   lose=<pct>           percentage of cases turned into first-player losses by choosing a_1
//                        (default 50); the others get a_1 = the losing value +-1 with
//                        probability near=<pct> (default 30), else keep their random a_1
//   seed=<anything>      only changes the stream
#[path = "../_common/rng.rs"]
mod rng;

const VMAX: i64 = 1_000_000_000;

// The pile size x making (x, b_0..b_{m-1}) a P-position (0 if b itself is one).
fn losing_left(b: &[i64]) -> i64 {
    let m = b.len();
    let mut lf = b.to_vec();
    let mut rg = b.to_vec();
    for len in 2..=m {
        let cnt = m - len + 1;
        let mut nl = vec![0; cnt];
        let mut nr = vec![0; cnt];
        for i in 0..cnt {
            let j = i + len - 1;
            let (l, r, x) = (lf[i], rg[i], b[j]);
            nl[i] = if x == r {
                0
            } else if (x < l && x < r) || (x > l && x > r) {
                x
            } else if l > r {
                x - 1
            } else {
                x + 1
            };
            let (l, r, x) = (lf[i + 1], rg[i + 1], b[i]);
            nr[i] = if x == l {
                0
            } else if (x < l && x < r) || (x > l && x > r) {
                x
            } else if r > l {
                x - 1
            } else {
                x + 1
            };
        }
        lf = nl;
        rg = nr;
    }
    lf[0]
}

fn main() {
    let args = rng::Args::from_env();
    let mut r = rng::Rng::from_args(&args);
    let t: usize = args.get("t", 10);
    let nmax: usize = args.get("n", 5);
    let nmin: usize = args.get("nmin", nmax);
    let vmin: i64 = args.get("min", 1);
    let vmax: i64 = args.get("max", VMAX);
    let mode = args.str("mode", "random").to_string();
    let lose: u64 = args.get("lose", 50);
    let near: u64 = args.get("near", 30);
    assert!(1 <= t && t <= 10 && 1 <= nmin && nmin <= nmax && nmax <= 1000);
    assert!(1 <= vmin && vmin <= vmax && vmax <= VMAX);
    let mut out = String::new();
    out.push_str(&format!("{}\n", t));
    for _ in 0..t {
        let n = r.range(nmin as u64, nmax as u64) as usize;
        let mut a: Vec<i64> = match mode.as_str() {
            "random" => (0..n).map(|_| r.range_i64(vmin, vmax)).collect(),
            "equal" => {
                let v = r.range_i64(vmin, vmax);
                vec![v; n]
            }
            "few" => {
                let k = r.range(2, 3) as usize;
                let vals: Vec<i64> = (0..k).map(|_| r.range_i64(vmin, vmax)).collect();
                (0..n).map(|_| *r.pick(&vals)).collect()
            }
            "mono" => {
                let mut v: Vec<i64> = (0..n).map(|_| r.range_i64(vmin, vmax)).collect();
                v.sort();
                if r.chance(1, 2) {
                    v.reverse();
                }
                v
            }
            _ => panic!("unknown mode {mode}"),
        };
        if n >= 2 && mode != "equal" {
            let x = losing_left(&a[1..]);
            if r.chance(lose, 100) {
                if (1..=VMAX).contains(&x) {
                    a[0] = x;
                }
            } else if r.chance(near, 100) {
                let y = if r.chance(1, 2) { x - 1 } else { x + 1 };
                if (1..=VMAX).contains(&y) {
                    a[0] = y;
                }
            }
        }
        out.push_str(&format!("{}\n", n));
        let line: Vec<String> = a.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    print!("{}", out);
}
