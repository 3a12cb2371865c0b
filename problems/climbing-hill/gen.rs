// Generator for `climbing-hill`. Arguments (key=value):
//   cases=<count>                 number of test cases in the file
//   n=<people> | nmin= nmax=      people per case (uniform in range)
//   parity=any|odd|even           force the parity of N (bumped by one; capped at 1000)
//   k=any|1|2|notk1|last          the king's rank (any: uniform in 1..=N)
//   max=<distance> (<= 99999)     largest distance
//   adj=<percent>                 chance that a gap between neighbours is 0
//   force=none|zero|nonzero|mix   the staircase value (the k >= 2 rule, applied
//                                 even when k = 1) is forced to be 0 / non-zero
//   differ=none|nok1|nok2fix|k2fixeven
//                                 every case must be answered differently by the
//                                 named wrong rule:
//                                   nok1      no k = 1 shortcut (staircase rule always)
//                                   nok2fix   odd N, k = 2: first gap a1, not a1 - 1
//                                   k2fixeven k = 2: a1 - 1 also for even N
//   eol=1|0                       0: no newline after the last line
//   bits=LO-HI gap=<g>            instead: case i has k >= 2 and a staircase value of exactly
//                                 2^(LO + i mod (HI-LO+1)) (Alice); the gaps other than the
//                                 last pair's are uniform in 0..=g (default 3); a value kept
//                                 in fewer bits reads as 0
// Output: per case a line `N k` and a line of N increasing distances.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

const MAXD: u64 = 99_999;

// The staircase value of the k >= 2 rule; `fix` = subtract 1 from the first
// gap of an odd N when k = 2; `fix_even` = the wrong a1 - 1 for even N too.
// Returns the value and the variant's distance list (for `zero_last`).
fn value_of(a: &[u64], k: usize, fix: bool, fix_even: bool) -> (u64, Vec<u64>) {
    let n = a.len();
    let mut b = a.to_vec();
    if fix_even && k == 2 && n % 2 == 0 {
        b[0] -= 1;
    }
    let mut x = 0;
    let mut i = 0;
    if n % 2 == 1 {
        x ^= if fix && k == 2 { b[0] - 1 } else { b[0] };
        i = 1;
    }
    while i + 1 < n {
        x ^= b[i + 1] - b[i] - 1;
        i += 2;
    }
    (x, b)
}

fn value(a: &[u64], k: usize, fix: bool, fix_even: bool) -> u64 {
    value_of(a, k, fix, fix_even).0
}

// Moves the last person so that the variant's value becomes 0 (the last pair
// is (a[n-2], a[n-1]) in every variant). None if impossible within `max`.
fn zero_last(a: &mut [u64], k: usize, fix: bool, fix_even: bool, max: u64) -> bool {
    let n = a.len();
    let (x, b) = value_of(a, k, fix, fix_even);
    if x == 0 {
        return true;
    }
    if n < 2 {
        return false;
    }
    let gap = a[n - 1] - b[n - 2] - 1;
    let last = b[n - 2] + 1 + (gap ^ x);
    if last > max || last <= a[n - 2] {
        return false;
    }
    a[n - 1] = last;
    true
}

fn alice(a: &[u64], k: usize) -> bool {
    k == 1 || value(a, k, true, false) != 0
}

// (fix, fix_even) of a wrong rule's staircase value; nok1 differs in the k = 1
// shortcut only.
fn wrong_variant(rule: &str) -> (bool, bool) {
    match rule {
        "nok1" => (true, false),
        "nok2fix" => (false, false),
        "k2fixeven" => (true, true),
        other => panic!("unknown differ={other}"),
    }
}

fn wrong_alice(rule: &str, a: &[u64], k: usize) -> bool {
    let (fix, fix_even) = wrong_variant(rule);
    (k == 1 && rule != "nok1") || value(a, k, fix, fix_even) != 0
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let cases: usize = args.get("cases", 1);
    let max: u64 = args.get("max", MAXD);
    assert!(max <= MAXD);
    let adj: u64 = args.get("adj", 0);
    let parity = args.str("parity", "any").to_string();
    let kmode = args.str("k", "any").to_string();
    let force = args.str("force", "none").to_string();
    let differ = args.str("differ", "none").to_string();
    let eol: u8 = args.get("eol", 1);
    let draw_n = |rng: &mut Rng| -> usize {
        let mut n: usize = if args.has("n") {
            args.get("n", 1)
        } else {
            rng.range(args.get("nmin", 1), args.get("nmax", 5)) as usize
        };
        match parity.as_str() {
            "any" => {}
            "odd" => {
                if n % 2 == 0 {
                    n = if n == 1000 { 999 } else { n + 1 };
                }
            }
            "even" => {
                if n % 2 == 1 {
                    n = if n == 1 { 2 } else if n == 999 { 998 } else { n + 1 };
                }
            }
            other => panic!("unknown parity={other}"),
        }
        assert!((1..=1000).contains(&n) && n as u64 <= max);
        n
    };
    let mut out = String::new();
    if args.has("bits") {
        let (lo, hi) = args.str("bits", "").split_once('-').expect("bits=LO-HI");
        let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert!(lo <= hi && hi < 63);
        let gap: u64 = args.get("gap", 3);
        for case in 0..cases {
            let want = 1u64 << (lo + case as u32 % (hi - lo + 1));
            let mut tries = 0u64;
            let (k, a) = loop {
                tries += 1;
                assert!(tries < 1_000_000, "could not meet the constraints");
                let n = draw_n(&mut rng);
                if n < 2 {
                    continue;
                }
                let k = rng.range(2, n as u64) as usize;
                let mut a = Vec::with_capacity(n);
                let mut at = 0u64;
                for _ in 0..n {
                    at += 1 + rng.range(0, gap);
                    a.push(at);
                }
                // The last pair is (a[n-2], a[n-1]): set its gap to reach `want`.
                let x = value(&a, k, true, false);
                let g = (a[n - 1] - a[n - 2] - 1) ^ x ^ want;
                a[n - 1] = a[n - 2] + 1 + g;
                if a[n - 1] > max {
                    continue;
                }
                assert_eq!(value(&a, k, true, false), want);
                break (k, a);
            };
            out.push_str(&format!("{} {}\n", a.len(), k));
            let line: Vec<String> = a.iter().map(|v| v.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        if eol == 0 {
            out.pop();
        }
        print!("{out}");
        return;
    }
    for _ in 0..cases {
        let mut tries = 0u64;
        let draw_want = |rng: &mut Rng| -> Option<bool> {
            match force.as_str() {
                "none" => None,
                "zero" => Some(false),
                "nonzero" => Some(true),
                "mix" => Some(rng.chance(1, 2)),
                other => panic!("unknown force={other}"),
            }
        };
        let mut want = draw_want(&mut rng);
        let (k, a) = loop {
            tries += 1;
            assert!(tries < 1_000_000, "could not meet the constraints");
            let n = draw_n(&mut rng);
            let k = match kmode.as_str() {
                "any" => rng.range(1, n as u64) as usize,
                "1" => 1,
                "2" => {
                    if n < 2 {
                        continue;
                    }
                    2
                }
                "notk1" => {
                    if n < 2 {
                        continue;
                    }
                    rng.range(2, n as u64) as usize
                }
                "last" => n,
                other => panic!("unknown k={other}"),
            };
            let mut a: Vec<u64> = rng.distinct(n, 1, max);
            a.sort_unstable();
            if adj > 0 {
                // Close some gaps: rebuild the distances from the gaps.
                let mut prev = 0u64;
                let mut b = Vec::with_capacity(n);
                for i in 0..n {
                    let gap = a[i] - if i == 0 { 0 } else { a[i - 1] } - 1;
                    let gap = if i > 0 && rng.chance(adj, 100) { 0 } else { gap };
                    prev += gap + 1;
                    b.push(prev);
                }
                a = b;
            }
            // What to force: Some(true) = the correct value non-zero (Alice),
            // Some(false) = the correct value zero.
            if tries % 1000 == 0 {
                want = draw_want(&mut rng);
            }
            let mut k = k;
            if force == "mix" && want == Some(false) && k == 1 && kmode == "any" && n >= 2 {
                k = rng.range(2, n as u64) as usize; // a k = 1 case is never Bob's
            }
            match want {
                Some(false) => {
                    if !zero_last(&mut a, k, true, false, max) {
                        continue;
                    }
                }
                Some(true) => {
                    if differ != "none" && differ != "nok1" {
                        // Alice wins, but the wrong rule's value is 0.
                        let (fix, fix_even) = wrong_variant(&differ);
                        if !zero_last(&mut a, k, fix, fix_even, max) {
                            continue;
                        }
                    } else if value(&a, k, true, false) == 0 {
                        if a[n - 1] + 1 > max {
                            continue;
                        }
                        a[n - 1] += 1;
                    }
                }
                None => {}
            }
            if differ != "none" && wrong_alice(&differ, &a, k) == alice(&a, k) {
                continue;
            }
            break (k, a);
        };
        out.push_str(&format!("{} {}\n", a.len(), k));
        let line: Vec<String> = a.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    if eol == 0 {
        out.pop();
    }
    print!("{out}");
}
