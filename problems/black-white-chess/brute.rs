// Brute force for `black-white-chess`: for every placement of the k pieces
// (colours alternating white, black, white, ... from the left), a memoised
// minimax over the real board. A state is the sorted piece positions and the
// side to move. A's turn: choose 1..=d white pieces and move each of them right
// by a positive distance, never onto or past the next piece to its right; B
// likewise moves 1..=d black pieces to the left, never onto or past the next
// piece to its left. The side with no legal turn loses. The placements where A,
// moving first, wins are counted (the count is small: no modulo needed).
use std::collections::HashMap;
use std::io::{self, Read};

struct Search {
    n: usize,
    d: usize,
    memo: HashMap<(Vec<u8>, bool), bool>,
}

impl Search {
    // Does the side to move win? `white`: A (white pieces) is to move.
    fn wins(&mut self, pos: &Vec<u8>, white: bool) -> bool {
        let key = (pos.clone(), white);
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let mine: Vec<usize> = (0..pos.len()).filter(|&i| (i % 2 == 0) == white).collect();
        let mut cur = pos.clone();
        let win = self.try_moves(&mine, 0, 0, &mut cur, white);
        self.memo.insert(key, win);
        win
    }

    // Enumerates the turns: for mine[idx..], each piece stays or moves.
    fn try_moves(
        &mut self,
        mine: &[usize],
        idx: usize,
        moved: usize,
        cur: &mut Vec<u8>,
        white: bool,
    ) -> bool {
        if idx == mine.len() {
            return moved > 0 && !self.wins(&cur.clone(), !white);
        }
        if self.try_moves(mine, idx + 1, moved, cur, white) {
            return true;
        }
        if moved == self.d {
            return false;
        }
        let i = mine[idx];
        let orig = cur[i];
        // Targets strictly between the piece and its neighbour in its direction.
        let targets: Vec<u8> = if white {
            let limit = if i + 1 < cur.len() {
                cur[i + 1]
            } else {
                self.n as u8
            };
            (orig + 1..limit).collect()
        } else {
            let limit = if i > 0 { cur[i - 1] as i32 } else { -1 };
            ((limit + 1) as u8..orig).collect()
        };
        for t in targets {
            cur[i] = t;
            let w = self.try_moves(mine, idx + 1, moved + 1, cur, white);
            cur[i] = orig;
            if w {
                return true;
            }
        }
        false
    }
}

fn count(n: usize, k: usize, start: usize, pos: &mut Vec<u8>, s: &mut Search) -> u64 {
    if pos.len() == k {
        return u64::from(s.wins(&pos.clone(), true));
    }
    let mut total = 0;
    for p in start..n {
        if n - p < k - pos.len() {
            break;
        }
        pos.push(p as u8);
        total += count(n, k, p + 1, pos, s);
        pos.pop();
    }
    total
}

fn main() {
    let mut inp = String::new();
    io::stdin().read_to_string(&mut inp).unwrap();
    let v: Vec<usize> = inp
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, k, d) = (v[0], v[1], v[2]);
    // Reach: at most 20 cells and at most 20000 placements.
    if n > 20 {
        std::process::exit(3);
    }
    let mut placements: u64 = 1;
    for i in 0..k as u64 {
        placements = placements * (n as u64 - i) / (i + 1);
    }
    if placements > 20_000 {
        std::process::exit(3);
    }
    let mut s = Search {
        n,
        d,
        memo: HashMap::new(),
    };
    println!("{}", count(n, k, 0, &mut Vec::new(), &mut s));
}
