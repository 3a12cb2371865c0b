//! A game of pieces on a DAG as `dag-game` and `dag-duel` draw it: the
//! graph's shape, its labels, the pieces and the answer, from the
//! generator's arguments. Both generators include it after the PRNG and
//! the planning:
//!
//! ```ignore
//! #[path = "../_common/rng.rs"]
//! mod rng;
//! #[path = "../_common/plan.rs"]
//! mod plan;
//! #[path = "../_common/dag.rs"]
//! mod dag;
//! ```
//!
//! Arguments (key=value):
//!   shape=random    n= m=    [window=w: an edge goes at most w ranks forward]
//!   shape=chain     n= m=    the path rank 0 -> 1 -> ... -> n-1, then random forward edges
//!   shape=complete  n= m= t= every pair among the first t ranks (t(t-1)/2 edges),
//!                            then random forward edges
//!   shape=layered   n= w=    layers of w nodes, all w*w edges between consecutive layers
//!                            (m is computed)
//!   nmax= mmax= kmax=        instead of n / m / k: uniform in 2..=nmax, 1..=mmax, 1..=min(kmax, n)
//!   labels=random|natural|reverse   how ranks become node numbers (default random):
//!                            natural: edges go from smaller to larger numbers, reverse: the opposite
//!   dup=<d>                  d of the m edges repeat an earlier edge (default 0)
//!   k=                       number of pieces
//!   pieces=random|distinct|pairs|sinks   (pairs: every node used an even number of times,
//!                            plus one extra piece when k is odd; sinks: only on nodes without
//!                            outgoing edges)
//!   start=<rank>             with pieces=random: the first piece goes on this rank
//!   minsg=<g>                with pieces=random: only nodes whose Grundy value is >= g
//!   answer=any|win|lose
//! Ranks are a topological order: every edge goes from a smaller rank to a larger one, so the
//! graph is acyclic. A game: `N M K`, the M edges `X Y`, the K starting nodes on one line.

use crate::plan;
use crate::rng::{Args, Rng};

fn sg_by_rank(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(x, y) in edges {
        out[x].push(y);
    }
    let mut sg = vec![0usize; n];
    for u in (0..n).rev() {
        let mut seen = vec![false; out[u].len() + 1];
        for &v in &out[u] {
            if sg[v] < seen.len() {
                seen[sg[v]] = true;
            }
        }
        sg[u] = seen.iter().position(|&s| !s).unwrap();
    }
    sg
}

fn random_forward_edge(rng: &mut Rng, n: usize, window: usize) -> (usize, usize) {
    let x = rng.range(0, n as u64 - 2) as usize;
    let hi = (x + window).min(n - 1);
    let y = rng.range(x as u64 + 1, hi as u64) as usize;
    (x, y)
}

/// One game drawn from `args`, with `answer` (`any`, `win` or `lose`) and
/// at most `kcap` pieces: `N M K`, the M edges, the K pieces' nodes.
pub fn one_game(args: &Args, rng: &mut Rng, answer: &str, kcap: u64) -> String {
    let shape = args.str("shape", "random").to_string();
    let n = plan::size(args, rng, 2);
    assert!(n >= 2, "n must be at least 2 (M >= 1 edge in a DAG)");
    let window: usize = args.get("window", n);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let m: usize = match shape.as_str() {
        "layered" => {
            let w: usize = args.get("w", 2);
            let layers = n / w;
            assert!(layers * w == n && layers >= 2);
            for l in 0..layers - 1 {
                for i in 0..w {
                    for j in 0..w {
                        edges.push((l * w + i, (l + 1) * w + j));
                    }
                }
            }
            edges.len()
        }
        _ => {
            if args.has("mmax") {
                rng.range(1, args.get("mmax", 1u64)) as usize
            } else {
                args.get("m", 1usize)
            }
        }
    };
    let dup: usize = args.get("dup", 0);
    match shape.as_str() {
        "layered" => {}
        "random" | "chain" | "complete" => {
            if shape == "chain" {
                for r in 0..n - 1 {
                    edges.push((r, r + 1));
                }
            }
            if shape == "complete" {
                let t: usize = args.get("t", 2);
                assert!(t <= n);
                for x in 0..t {
                    for y in x + 1..t {
                        edges.push((x, y));
                    }
                }
            }
            assert!(edges.len() + dup <= m, "m too small for the shape");
            while edges.len() + dup < m {
                let e = random_forward_edge(rng, n, window);
                edges.push(e);
            }
            for _ in 0..dup {
                let e = edges[rng.range(0, edges.len() as u64 - 1) as usize];
                edges.push(e);
            }
        }
        other => panic!("unknown shape={other}"),
    }
    assert_eq!(edges.len(), m);
    rng.shuffle(&mut edges);

    let mut label: Vec<usize> = (1..=n).collect();
    match args.str("labels", "random") {
        "random" => rng.shuffle(&mut label),
        "natural" => {}
        "reverse" => label.reverse(),
        other => panic!("unknown labels={other}"),
    }

    let sg = sg_by_rank(n, &edges);
    let k: usize = if args.has("kmax") {
        rng.range(1, args.get("kmax", 1u64).min(n as u64).min(kcap)) as usize
    } else {
        args.get("k", 1usize)
    };
    assert!(k >= 1 && k <= n);
    let pieces_kind = args.str("pieces", "random").to_string();
    let sinks: Vec<usize> = (0..n)
        .filter(|&u| !edges.iter().any(|e| e.0 == u))
        .collect();
    let minsg: usize = args.get("minsg", 0);
    let pool: Vec<usize> = (0..n).filter(|&u| sg[u] >= minsg).collect();
    assert!(!pool.is_empty(), "no node with a Grundy value >= minsg");
    let mut pieces: Vec<usize> = Vec::new();
    let mut done = false;
    for _attempt in 0..100_000 {
        pieces = match pieces_kind.as_str() {
            "random" => {
                let mut p: Vec<usize> = (0..k).map(|_| *rng.pick(&pool)).collect();
                if args.has("start") {
                    p[0] = args.get("start", 0usize);
                }
                p
            }
            "distinct" => rng
                .distinct(k, 0, n as u64 - 1)
                .into_iter()
                .map(|x| x as usize)
                .collect(),
            "pairs" => {
                let mut p = Vec::new();
                for _ in 0..k / 2 {
                    let x = rng.range(0, n as u64 - 1) as usize;
                    p.push(x);
                    p.push(x);
                }
                if k % 2 == 1 {
                    p.push(rng.range(0, n as u64 - 1) as usize);
                }
                p
            }
            "sinks" => (0..k).map(|_| *rng.pick(&sinks)).collect(),
            other => panic!("unknown pieces={other}"),
        };
        let x = pieces.iter().fold(0, |a, &p| a ^ sg[p]);
        let ok = match answer {
            "any" => true,
            "win" => x != 0,
            "lose" => {
                if x == 0 {
                    true
                } else if pieces_kind == "random" || pieces_kind == "distinct" {
                    // Replace the last piece by a node with the Grundy value that cancels.
                    let want = x ^ sg[pieces[k - 1]];
                    let cand: Vec<usize> = (0..n)
                        .filter(|&u| {
                            sg[u] == want
                                && sg[u] >= minsg
                                && (pieces_kind == "random" || !pieces[..k - 1].contains(&u))
                        })
                        .collect();
                    if cand.is_empty() || (k == 1 && args.has("start")) {
                        false
                    } else {
                        pieces[k - 1] = *rng.pick(&cand);
                        true
                    }
                } else {
                    false
                }
            }
            other => panic!("unknown answer={other}"),
        };
        if ok {
            done = true;
            break;
        }
    }
    assert!(done, "could not meet answer={answer}");
    if !args.has("start") {
        rng.shuffle(&mut pieces);
    }

    let mut out = String::with_capacity(16 * m + 8 * k + 32);
    out.push_str(&format!("{n} {m} {k}\n"));
    for &(x, y) in &edges {
        out.push_str(&format!("{} {}\n", label[x], label[y]));
    }
    let line: Vec<String> = pieces.iter().map(|&p| label[p].to_string()).collect();
    out.push_str(&line.join(" "));
    out.push('\n');
    out
}
