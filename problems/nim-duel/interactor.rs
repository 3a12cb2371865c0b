// Interactor for `nim-duel`: the referee of problems/_common/referee.rs with
// Nim as its game. Input: T, per game `n` and the n piles, then a seed line.
// Value of a position: the XOR of the piles. From XOR 0 the judge takes one
// stone from a pile chosen at random (the game lasts); otherwise it wins.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/referee.rs"]
mod referee;

use referee::{Game, TestInput};

struct Nim {
    piles: Vec<u64>,
}

/// Take `x` stones from pile `i` (1-based), as written: checked before played.
#[derive(Clone)]
struct Take {
    i: i64,
    x: i64,
}

impl Game for Nim {
    type Pos = Vec<u64>;
    type Move = Take;

    fn announce(&self) -> String {
        let piles: Vec<String> = self.piles.iter().map(u64::to_string).collect();
        format!("{}\n{}\n", self.piles.len(), piles.join(" "))
    }

    fn start(&self) -> Vec<u64> {
        self.piles.clone()
    }

    fn moves(&self, pos: &Vec<u64>) -> Vec<Take> {
        let mut out = Vec::new();
        for (i, &a) in pos.iter().enumerate() {
            for x in 1..=a {
                out.push(Take { i: i as i64 + 1, x: x as i64 });
            }
        }
        out
    }

    fn terminal(&self, pos: &Vec<u64>) -> bool {
        pos.iter().all(|&a| a == 0)
    }

    fn value(&self, pos: &Vec<u64>) -> u64 {
        pos.iter().fold(0, |x, &a| x ^ a)
    }

    fn value_after(&self, pos: &Vec<u64>, mv: &Take) -> u64 {
        let a = pos[mv.i as usize - 1];
        self.value(pos) ^ a ^ (a - mv.x as u64)
    }

    fn lasting(&self, _pos: &Vec<u64>, moves: Vec<Take>) -> Vec<Take> {
        moves.into_iter().filter(|m| m.x == 1).collect()
    }

    fn parse(&self, line: &str) -> Result<Take, String> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.len() != 2 {
            return Err(format!("expected two integers `i x`, found {} words", words.len()));
        }
        let num = |w: &str| -> Result<i64, String> {
            w.parse::<i64>().map_err(|_| format!("{w:?} is not an integer"))
        };
        Ok(Take { i: num(words[0])?, x: num(words[1])? })
    }

    fn check(&self, pos: &Vec<u64>, mv: &Take) -> Result<(), String> {
        let n = pos.len() as i64;
        if mv.i < 1 || mv.i > n {
            return Err(format!("there is no pile {} (piles are numbered 1 to {n})", mv.i));
        }
        let a = pos[mv.i as usize - 1];
        if mv.x < 1 {
            return Err(format!("takes {} stones (at least 1 must be taken)", mv.x));
        }
        if mv.x as u64 > a {
            return Err(format!("takes {} stones from pile {}, which holds {a}", mv.x, mv.i));
        }
        Ok(())
    }

    fn play(&self, pos: &mut Vec<u64>, mv: &Take) {
        pos[mv.i as usize - 1] -= mv.x as u64;
    }

    fn show_pos(&self, pos: &Vec<u64>) -> String {
        let piles: Vec<String> = pos.iter().map(u64::to_string).collect();
        format!("piles [{}]", piles.join(" "))
    }

    fn show_move(&self, mv: &Take) -> String {
        format!("{} {}", mv.i, mv.x)
    }
}

fn main() {
    let mut input = TestInput::from_args();
    let t: usize = input.next();
    let games: Vec<Nim> = (0..t)
        .map(|_| {
            let n: usize = input.next();
            Nim { piles: (0..n).map(|_| input.next()).collect() }
        })
        .collect();
    let _seed: u64 = input.next(); // part of the hash that seeds the judge
    referee::run(&input, &games)
}
