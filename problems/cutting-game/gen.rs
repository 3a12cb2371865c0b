// Generator for cutting-game. Every mode takes [nl=1|0] (whether the last line ends with '\n')
// and [order=rev] (print the boards in reverse order).
//   mode=random lines=<L> [min=2] [max=200] [maxarea=<A>] [lose=<percent>] [first=win|lose]
//               random boards; `lose` percent of them are second-player wins (default: uniform)
//   mode=all    [lo=2] [hi=200]               every board lo..=hi x lo..=hi, row by row
//   mode=area   area=<A>                       every board with W*H <= A
//   mode=mirror lines=<L> [max=200]            random boards, each followed by its transpose
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};
use std::fmt::Write;

const N: usize = 200;

/// Second-player-win table (used only to balance WIN/LOSE in the random mode).
fn lose_table() -> Vec<Vec<bool>> {
    let mut sg = vec![vec![0u32; N + 1]; N + 1];
    for w in 2..=N {
        for h in 2..=N {
            let mut seen = [false; 64];
            for i in 2..w.saturating_sub(1) {
                seen[(sg[i][h] ^ sg[w - i][h]) as usize] = true;
            }
            for j in 2..h.saturating_sub(1) {
                seen[(sg[w][j] ^ sg[w][h - j]) as usize] = true;
            }
            sg[w][h] = (0..).find(|&m| !seen[m as usize]).unwrap();
        }
    }
    sg.iter().map(|r| r.iter().map(|&v| v == 0).collect()).collect()
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mut boards: Vec<(usize, usize)> = Vec::new();
    match args.str("mode", "random") {
        "random" => {
            let lines: usize = args.get("lines", 10);
            let lo: usize = args.get("min", 2);
            let hi: usize = args.get("max", N);
            let maxarea: usize = args.get("maxarea", N * N);
            let lose = lose_table();
            let fits = |w: usize, h: usize| w * h <= maxarea;
            let all: Vec<(usize, usize)> = (lo..=hi)
                .flat_map(|w| (lo..=hi).map(move |h| (w, h)))
                .filter(|&(w, h)| fits(w, h))
                .collect();
            let losing: Vec<(usize, usize)> = all.iter().copied().filter(|&(w, h)| lose[w][h]).collect();
            let winning: Vec<(usize, usize)> = all.iter().copied().filter(|&(w, h)| !lose[w][h]).collect();
            let pct: Option<u64> = if args.has("lose") { Some(args.get("lose", 0)) } else { None };
            for k in 0..lines {
                let want_lose = match (k, args.str("first", "")) {
                    (0, "win") => Some(false),
                    (0, "lose") => Some(true),
                    _ => pct.map(|p| rng.chance(p, 100)),
                };
                boards.push(match want_lose {
                    None => *rng.pick(&all),
                    Some(true) => *rng.pick(&losing),
                    Some(false) => *rng.pick(&winning),
                });
            }
        }
        "all" => {
            let lo: usize = args.get("lo", 2);
            let hi: usize = args.get("hi", N);
            for w in lo..=hi {
                for h in lo..=hi {
                    boards.push((w, h));
                }
            }
        }
        "area" => {
            let area: usize = args.get("area", 50);
            for w in 2..=N {
                for h in 2..=N {
                    if w * h <= area {
                        boards.push((w, h));
                    }
                }
            }
        }
        "mirror" => {
            let lines: usize = args.get("lines", 10);
            let hi: u64 = args.get("max", N as u64);
            for _ in 0..lines / 2 {
                let w = rng.range(2, hi) as usize;
                let h = rng.range(2, hi) as usize;
                boards.push((w, h));
                boards.push((h, w));
            }
        }
        other => panic!("unknown mode {other}"),
    }
    if args.str("order", "") == "rev" {
        boards.reverse();
    }
    let mut out = String::new();
    for (w, h) in &boards {
        writeln!(out, "{w} {h}").unwrap();
    }
    if args.get("nl", 1u32) == 0 {
        out.pop();
    }
    print!("{out}");
}
