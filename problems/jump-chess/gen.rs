// Generator for `jump-chess`. Arguments (key=value):
//   t=<tests> (1..=100)
//   n=<rows> | nmin= nmax=        rows per test (uniform in range)
//   mmin= mmax=                   pieces per random row (capped by the free columns)
//   lo=<column>                   random rows use columns lo..=20 only (default 1)
//   empty=<percent>               chance of a row with m = 0
//   packed=<percent>              chance of a row that is one block ending at
//                                 column 20 (no piece can move), length 1..=mmax
//   full=<percent>                chance of a row with all 20 columns taken
//   order=shuffle|asc|desc        order of the columns on a row line
//   answer=any|yes|no|mix         forced answer per test (mix: random per test)
//   differ=none|winlose|steps|single
//                                 every test must be answered differently by the
//                                 named wrong rule:
//                                   winlose  XOR of (row value != 0)
//                                   steps    parity of the total number of free
//                                            cells to the right of every piece
//                                   single   Grundy values of a misread game where
//                                            a piece may jump over ONE piece only
// Output: T, then per test n and n row lines `m p_1 ... p_m`.
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

// The staircase value of a row: scan from column 20 to the left; a maximal run
// of pieces with an odd number of free cells to its right adds its length.
fn row_value(cols: &[u32]) -> u32 {
    let mut occ = [false; 21];
    for &c in cols {
        occ[c as usize] = true;
    }
    let mut x = 0;
    let mut free = 0;
    let mut c = 20;
    while c >= 1 {
        if occ[c] {
            let mut len = 0;
            while c >= 1 && occ[c] {
                len += 1;
                c -= 1;
            }
            if free % 2 == 1 {
                x ^= len;
            }
        } else {
            free += 1;
            c -= 1;
        }
    }
    x
}

fn mask_of(cols: &[u32]) -> usize {
    cols.iter().fold(0, |m, &c| m | 1 << (20 - c))
}

// Grundy values of the misread game (jump over exactly one piece).
fn single_jump_table() -> Vec<u8> {
    let size = 1usize << 20;
    let mut sg = vec![0u8; size];
    for mask in 1..size {
        let mut seen = 0u32;
        for b in 1..20 {
            if mask >> b & 1 == 0 {
                continue;
            }
            let to = if mask >> (b - 1) & 1 == 0 {
                Some(b - 1)
            } else if b >= 2 && mask >> (b - 2) & 1 == 0 {
                Some(b - 2)
            } else {
                None
            };
            if let Some(j) = to {
                seen |= 1 << sg[mask & !(1 << b) | 1 << j];
            }
        }
        sg[mask] = (!seen).trailing_zeros() as u8;
    }
    sg
}

fn steps_parity(cols: &[u32]) -> u32 {
    let mut occ = [false; 21];
    for &c in cols {
        occ[c as usize] = true;
    }
    let mut total = 0;
    for &c in cols {
        total += ((c + 1)..=20).filter(|&d| !occ[d as usize]).count() as u32;
    }
    total % 2
}

struct Cfg {
    mmin: u64,
    mmax: u64,
    lo: u64,
    empty: u64,
    packed: u64,
    full: u64,
}

fn gen_row(rng: &mut Rng, cfg: &Cfg) -> Vec<u32> {
    let roll = rng.range(0, 99);
    if roll < cfg.empty {
        return Vec::new();
    }
    if roll < cfg.empty + cfg.packed {
        let len = rng.range(1, cfg.mmax.max(1).min(20)) as u32;
        return (21 - len..=20).collect();
    }
    if roll < cfg.empty + cfg.packed + cfg.full {
        return (1..=20).collect();
    }
    let width = 21 - cfg.lo;
    let m = rng.range(cfg.mmin.min(width), cfg.mmax.min(width));
    rng.distinct(m as usize, cfg.lo, 20).into_iter().map(|c| c as u32).collect()
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let t: usize = args.get("t", 1);
    assert!((1..=100).contains(&t));
    let cfg = Cfg {
        mmin: args.get("mmin", 0),
        mmax: args.get("mmax", 20),
        lo: args.get("lo", 1),
        empty: args.get("empty", 0),
        packed: args.get("packed", 0),
        full: args.get("full", 0),
    };
    assert!((1..=20).contains(&cfg.lo) && cfg.mmin <= cfg.mmax && cfg.mmax <= 20);
    let order = args.str("order", "shuffle").to_string();
    let answer = args.str("answer", "any").to_string();
    let differ = args.str("differ", "none").to_string();
    let single = if differ == "single" { single_jump_table() } else { Vec::new() };
    let mut out = format!("{t}\n");
    for _ in 0..t {
        let draw_n = |rng: &mut Rng| -> usize {
            let n: usize = if args.has("n") {
                args.get("n", 1)
            } else {
                rng.range(args.get("nmin", 1), args.get("nmax", 3)) as usize
            };
            assert!((1..=1000).contains(&n));
            n
        };
        let draw_target = |rng: &mut Rng| -> Option<bool> {
            match answer.as_str() {
                "any" => None,
                "yes" => Some(true),
                "no" => Some(false),
                "mix" => Some(rng.chance(1, 2)),
                other => panic!("unknown answer={other}"),
            }
        };
        let mut n = draw_n(&mut rng);
        let mut target = draw_target(&mut rng);
        let mut tries = 0;
        let rows: Vec<Vec<u32>> = 'test: loop {
            tries += 1;
            assert!(tries < 100_000, "could not meet the constraints");
            if tries % 100 == 0 {
                // (n, answer) may be impossible together with `differ`
                n = draw_n(&mut rng);
                target = draw_target(&mut rng);
            }
            let mut rows: Vec<Vec<u32>> = (0..n - 1).map(|_| gen_row(&mut rng, &cfg)).collect();
            let x = rows.iter().fold(0, |x, r| x ^ row_value(r));
            // the last row decides the answer
            let mut last = None;
            for _ in 0..2000 {
                let r = gen_row(&mut rng, &cfg);
                let v = row_value(&r);
                let ok = match target {
                    None => true,
                    Some(true) => v != x,
                    Some(false) => v == x,
                };
                if ok {
                    last = Some(r);
                    break;
                }
            }
            let Some(last) = last else { continue 'test };
            rows.push(last);
            let right = rows.iter().fold(0, |x, r| x ^ row_value(r)) != 0;
            let wrong = match differ.as_str() {
                "none" => !right,
                "winlose" => rows.iter().fold(0, |x, r| x ^ (row_value(r) != 0) as u32) != 0,
                "steps" => rows.iter().fold(0, |x, r| x ^ steps_parity(r)) != 0,
                "single" => rows.iter().fold(0, |x, r| x ^ single[mask_of(r)]) != 0,
                other => panic!("unknown differ={other}"),
            };
            if wrong != right {
                break rows;
            }
        };
        out.push_str(&format!("{n}\n"));
        for mut r in rows {
            match order.as_str() {
                "shuffle" => rng.shuffle(&mut r),
                "asc" => r.sort_unstable(),
                "desc" => r.sort_unstable_by(|a, b| b.cmp(a)),
                other => panic!("unknown order={other}"),
            }
            out.push_str(&r.len().to_string());
            for c in r {
                out.push(' ');
                out.push_str(&c.to_string());
            }
            out.push('\n');
        }
    }
    print!("{out}");
}
