// Brute force: play out the draft for every sequence of the human's picks (the computer's reply is
// fixed by its rule), score each finished draft, and keep the best winning pair value.
use std::io::{self, Read};

const MAX_N: usize = 12;

struct Game {
    n: usize,
    v: Vec<Vec<i64>>,
}

impl Game {
    fn best_pair(&self, side: &[usize]) -> i64 {
        let mut best = -1;
        for (k, &a) in side.iter().enumerate() {
            for &b in &side[k + 1..] {
                best = best.max(self.v[a][b]);
            }
        }
        best
    }

    /// Human to move. Returns the best winning value reachable, or -1 if none.
    fn search(&self, free: &mut Vec<bool>, human: &mut Vec<usize>, comp: &mut Vec<usize>) -> i64 {
        if human.len() + comp.len() == self.n {
            let h = self.best_pair(human);
            return if h > self.best_pair(comp) { h } else { -1 };
        }
        let mut result = -1;
        for x in 0..self.n {
            if !free[x] {
                continue;
            }
            free[x] = false;
            human.push(x);
            // The computer: the free general forming the highest pair with one of the human's.
            let mut pick = (i64::MIN, usize::MAX);
            for &h in human.iter() {
                for f in 0..self.n {
                    if free[f] && self.v[h][f] > pick.0 {
                        pick = (self.v[h][f], f);
                    }
                }
            }
            let c = pick.1;
            free[c] = false;
            comp.push(c);
            result = result.max(self.search(free, human, comp));
            comp.pop();
            free[c] = true;
            human.pop();
            free[x] = true;
        }
        result
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let nums: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let n = nums[0] as usize;
    if n > MAX_N {
        std::process::exit(3);
    }
    let mut v = vec![vec![-1i64; n]; n];
    let mut k = 1;
    for i in 0..n {
        for j in i + 1..n {
            v[i][j] = nums[k];
            v[j][i] = nums[k];
            k += 1;
        }
    }
    let game = Game { n, v };
    let r = game.search(&mut vec![true; n], &mut Vec::new(), &mut Vec::new());
    if r >= 0 {
        println!("1\n{r}");
    } else {
        println!("0");
    }
}
