// Generator for `kam-pebbles`. Arguments (key=value):
//   u=<arrangements> (1..=10)
//   n=<piles> | nmin= nmax=        pile count per arrangement (uniform in range)
//   parity=any|even|odd           force the parity of n (n is bumped by one)
//   max=<value> (<= 10000)        largest pile size
//   zeros=<percent>               chance that a pile is 0 (zeros sort to the left)
//   levels=<k>                    k > 0: sizes are drawn from k random levels only
//                                 (many equal neighbours)
//   answer=any|tak|nie|mix        forced answer per arrangement (mix: random each)
//   differ=none|left|pairleft|nofirst|nim
//                                 every arrangement must be answered differently by
//                                 the named wrong rule:
//                                   left     d_1 ^ d_3 ^ ...   (parity from the left)
//                                   pairleft (a2-a1) ^ (a4-a3) ^ ... (pairs from the left)
//                                   nofirst  d_n ^ d_{n-2} ^ ... but never d_1
//                                   nim      a_1 ^ a_2 ^ ... ^ a_n
//   mode=same value=<v>           every pile equals v (n piles)
//   mode=bits bits=LO-HI gap=<g>  arrangement i has d_n ^ d_{n-2} ^ ... exactly
//                                 2^(LO + i mod (HI-LO+1)) (TAK), the other
//                                 differences uniform in 0..=g (default 3), sizes <= max;
//                                 a XOR kept in fewer bits sees 0
// Output: u, then per arrangement n and the n sizes.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

fn diffs(a: &[u64]) -> Vec<u64> {
    (0..a.len()).map(|i| a[i] - if i == 0 { 0 } else { a[i - 1] }).collect()
}

fn right_xor(a: &[u64]) -> u64 {
    let d = diffs(a);
    let n = d.len();
    (0..n).filter(|&i| (n - 1 - i) % 2 == 0).fold(0, |x, i| x ^ d[i])
}

fn wrong_says_win(rule: &str, a: &[u64]) -> bool {
    let d = diffs(a);
    let n = d.len();
    let x = match rule {
        "left" => (0..n).step_by(2).fold(0, |x, i| x ^ d[i]),
        "pairleft" => (1..n).step_by(2).fold(0, |x, i| x ^ d[i]),
        "nofirst" => (1..n).filter(|&i| (n - 1 - i) % 2 == 0).fold(0, |x, i| x ^ d[i]),
        "nim" => a.iter().fold(0, |x, &v| x ^ v),
        other => panic!("unknown differ={other}"),
    };
    x != 0
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let u: usize = args.get("u", 1);
    assert!((1..=10).contains(&u));
    let mode = args.str("mode", "random").to_string();
    let max: u64 = args.get("max", 10_000);
    assert!(max <= 10_000);
    let zeros: u64 = args.get("zeros", 0);
    let levels: usize = args.get("levels", 0);
    let answer = args.str("answer", "any").to_string();
    let differ = args.str("differ", "none").to_string();
    let parity = args.str("parity", "any").to_string();
    let mut out = format!("{u}\n");
    for case in 0..u {
        let draw_n = |rng: &mut Rng| -> usize {
            let mut n: usize = if args.has("n") {
                args.get("n", 1)
            } else {
                rng.range(args.get("nmin", 1), args.get("nmax", 10)) as usize
            };
            match parity.as_str() {
                "any" => {}
                "even" => n += n % 2,
                "odd" => n += 1 - n % 2,
                other => panic!("unknown parity={other}"),
            }
            assert!((1..=1000).contains(&n), "n out of range");
            n
        };
        let draw_target = |rng: &mut Rng| -> Option<bool> {
            match answer.as_str() {
                "any" => None,
                "tak" => Some(true),
                "nie" => Some(false),
                "mix" => Some(rng.chance(1, 2)),
                other => panic!("unknown answer={other}"),
            }
        };
        let mut n = draw_n(&mut rng);
        let a: Vec<u64> = if mode == "same" {
            vec![args.get("value", 0u64); n]
        } else if mode == "bits" {
            let (lo, hi) = args.str("bits", "").split_once('-').expect("bits=LO-HI");
            let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
            assert!(lo <= hi && hi < 63);
            let want = 1u64 << (lo + case as u32 % (hi - lo + 1));
            let gap: u64 = args.get("gap", 3);
            let mut tries = 0u64;
            loop {
                tries += 1;
                assert!(tries < 1_000_000, "could not meet the constraints");
                if tries % 200 == 0 {
                    n = draw_n(&mut rng);
                }
                let mut d: Vec<u64> = (0..n).map(|_| rng.range(0, gap)).collect();
                let x = (0..n - 1).filter(|&i| (n - 1 - i) % 2 == 0).fold(0, |x, i| x ^ d[i]);
                d[n - 1] = x ^ want;
                let a: Vec<u64> = d
                    .iter()
                    .scan(0, |s, &v| {
                        *s += v;
                        Some(*s)
                    })
                    .collect();
                if a[n - 1] > max {
                    continue;
                }
                assert_eq!(right_xor(&a), want);
                break a;
            }
        } else {
            assert_eq!(mode, "random", "unknown mode");
            let mut target = draw_target(&mut rng);
            let mut tries = 0u64;
            loop {
                tries += 1;
                assert!(tries < 1_000_000, "could not meet the constraints");
                if tries % 200 == 0 {
                    // The (n, answer) pair may be impossible (e.g. n = 1 with
                    // differ=nofirst and answer NIE): draw both again.
                    n = draw_n(&mut rng);
                    target = draw_target(&mut rng);
                }
                let lv: Vec<u64> = (0..levels).map(|_| rng.range(0, max)).collect();
                let mut a: Vec<u64> = (0..n)
                    .map(|_| {
                        if rng.chance(zeros, 100) {
                            0
                        } else if levels > 0 {
                            *rng.pick(&lv)
                        } else {
                            rng.range(0, max)
                        }
                    })
                    .collect();
                a.sort_unstable();
                let x = right_xor(&a);
                match target {
                    Some(false) if x != 0 => {
                        // Fix d_n so that the XOR becomes 0: move the last pile.
                        let prev = if n >= 2 { a[n - 2] } else { 0 };
                        let dn = a[n - 1] - prev;
                        let last = prev + (dn ^ x);
                        if last > max {
                            continue;
                        }
                        a[n - 1] = last;
                    }
                    Some(true) if x == 0 => continue,
                    _ => {}
                }
                if differ != "none" && wrong_says_win(&differ, &a) == (right_xor(&a) != 0) {
                    continue;
                }
                break a;
            }
        };
        out.push_str(&format!("{n}\n"));
        let line: Vec<String> = a.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    print!("{out}");
}
