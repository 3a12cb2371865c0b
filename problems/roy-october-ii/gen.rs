// Generator for roy-october-ii.
//   mode=random  t=<T> [min=1] [max=50000000] [roy=<percent of multiples of 4>] [first=roy|october]
//   mode=range   lo=<a> hi=<b>                 every n in a..=b, in order
//   mode=primepowers [max=50000000]            every p^k with k >= 2 up to max (legal in P4018 only)
//   mode=disagree t=<T> [min] [max] [first]    only n where "n mod 4 = 0" and "n mod 6 = 0" differ
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};
use std::fmt::Write;

const MAXN: u64 = 50_000_000;

/// A uniform n in lo..=hi that is (mult4) or is not (!mult4) a multiple of 4.
fn pick(rng: &mut Rng, lo: u64, hi: u64, mult4: bool) -> u64 {
    loop {
        let n = rng.range(lo, hi);
        if (n % 4 == 0) == mult4 {
            return n;
        }
    }
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let mut ns: Vec<u64> = Vec::new();
    match mode.as_str() {
        "random" | "disagree" => {
            let t: usize = args.get("t", 10);
            let lo: u64 = args.get("min", 1);
            let hi: u64 = args.get("max", MAXN);
            let roy: u64 = args.get("roy", 25);
            for _ in 0..t {
                if mode == "random" {
                    let m4 = rng.chance(roy, 100);
                    ns.push(pick(&mut rng, lo.max(if m4 { 4 } else { 1 }), hi, m4));
                } else {
                    loop {
                        let n = rng.range(lo, hi);
                        if (n % 4 == 0) != (n % 6 == 0) {
                            ns.push(n);
                            break;
                        }
                    }
                }
            }
        }
        "range" => {
            let lo: u64 = args.get("lo", 1);
            let hi: u64 = args.get("hi", 1000);
            ns.extend(lo..=hi);
        }
        "primepowers" => {
            let hi: u64 = args.get("max", MAXN);
            let mut p = 2u64;
            while p * p <= hi {
                if (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0) {
                    let mut q = p * p;
                    while q <= hi {
                        ns.push(q);
                        q *= p;
                    }
                }
                p += 1;
            }
            ns.sort_unstable();
        }
        other => panic!("unknown mode {other}"),
    }
    match args.str("first", "") {
        "" => {}
        want => {
            let m4 = want == "roy";
            let i = ns.iter().position(|&n| (n % 4 == 0) == m4).expect("no such n");
            ns.swap(0, i);
        }
    }
    let mut out = String::new();
    writeln!(out, "{}", ns.len()).unwrap();
    for n in ns {
        writeln!(out, "{n}").unwrap();
    }
    print!("{out}");
}
