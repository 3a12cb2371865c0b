// Brute force for `plate-game`: an exhaustive win/lose search of the plate
// game with every centre restricted to the half-integer lattice.
//
// Scaling every length by 2 makes the table [0, 2a] x [0, 2b], the radius 2r
// and the candidate centres integer points (x, y) with 2r <= x <= 2a - 2r and
// 2r <= y <= 2b - 2r. Two plates may touch but not overlap: their centres are
// at distance >= 4r, i.e. dx^2 + dy^2 >= 16 r^2. A state is the set of placed
// plates (a bitmask over the candidate centres); the player with no free
// candidate loses.
//
// Why the restricted game has the real game's outcome: the table's centre
// (a/2, b/2) is itself a lattice point and the reflection through it maps
// lattice points to lattice points, so the same strategies decide both games;
// and if any plate fits at all, one fits at the lattice point (r, r). This
// program does not use that argument: it searches the restricted game.
use std::collections::HashMap;
use std::io::{self, Read};

struct Game {
    conflict: Vec<u64>, // conflict[i]: candidates that overlap candidate i (incl. i)
    memo: HashMap<u64, bool>,
    budget: usize,
}

impl Game {
    // `blocked`: candidates that can no longer be used.
    fn wins(&mut self, blocked: u64) -> Option<bool> {
        if let Some(&w) = self.memo.get(&blocked) {
            return Some(w);
        }
        if self.memo.len() >= self.budget {
            return None;
        }
        let mut win = false;
        for i in 0..self.conflict.len() {
            if blocked >> i & 1 == 0 && !self.wins(blocked | self.conflict[i])? {
                win = true;
                break;
            }
        }
        self.memo.insert(blocked, win);
        Some(win)
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (a, b, r) = (v[0], v[1], v[2]);
    let mut centres = Vec::new();
    for x in 2 * r..=2 * a - 2 * r {
        for y in 2 * r..=2 * b - 2 * r {
            centres.push((x, y));
        }
    }
    if centres.len() > 64 {
        std::process::exit(3);
    }
    let conflict: Vec<u64> = centres
        .iter()
        .map(|&(x1, y1)| {
            let mut m = 0u64;
            for (j, &(x2, y2)) in centres.iter().enumerate() {
                let (dx, dy) = (x1 - x2, y1 - y2);
                if dx * dx + dy * dy < 16 * r * r {
                    m |= 1 << j;
                }
            }
            m
        })
        .collect();
    let mut game = Game {
        conflict,
        memo: HashMap::new(),
        budget: 3_000_000,
    };
    match game.wins(0) {
        Some(true) => println!("First"),
        Some(false) => println!("Second"),
        None => std::process::exit(3),
    }
}
