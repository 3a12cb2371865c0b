// Brute force for madmax: plays every game out by plain minimax over the real state
// (Max's vertex, Lucas's vertex, whose turn, letter of the previous move), no memoisation.
use std::io::{self, Read};

struct Game {
    adj: Vec<Vec<(usize, u8)>>,
}

impl Game {
    // Does Max win from this state?
    fn max_wins(&self, pm: usize, pl: usize, max_turn: bool, last: u8) -> bool {
        if max_turn {
            // Max needs one move after which he still wins; no move: Max loses
            self.adj[pm]
                .iter()
                .any(|&(to, c)| c >= last && self.max_wins(to, pl, false, c))
        } else {
            // every Lucas move must leave Max winning; no move: Lucas loses
            self.adj[pl]
                .iter()
                .all(|&(to, c)| c < last || self.max_wins(pm, to, true, c))
        }
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let m: usize = it.next().unwrap().parse().unwrap();
    if n > 9 {
        std::process::exit(3);
    }
    let mut adj = vec![Vec::new(); n + 1];
    for _ in 0..m {
        let v: usize = it.next().unwrap().parse().unwrap();
        let u: usize = it.next().unwrap().parse().unwrap();
        let c = it.next().unwrap().as_bytes()[0];
        adj[v].push((u, c));
    }
    let g = Game { adj };
    let mut out = String::new();
    for i in 1..=n {
        for j in 1..=n {
            out.push(if g.max_wins(i, j, true, 0) { 'A' } else { 'B' });
        }
        out.push('\n');
    }
    print!("{}", out);
}
