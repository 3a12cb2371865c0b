// Brute force for `nim-duel`: per game, a memoised win/lose search over the
// real positions (sorted pile tuples; a move lowers one pile to any smaller
// size; the player to move with every pile empty has lost). The player who
// moves first wins exactly when the start is a winning position: `first`,
// else `second`. Declines (exit 3) a test with a game of more than 20000
// positions (the product of pile size + 1).
use std::collections::HashMap;
use std::io::Read;

fn wins(state: &Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'all: for i in 0..state.len() {
        for v in 0..state[i] {
            let mut next = state.clone();
            next[i] = v;
            next.sort_unstable();
            if !wins(&next, memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    let mut games = Vec::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let piles: Vec<u32> = (0..n).map(|_| it.next().unwrap() as u32).collect();
        let size: u64 = piles.iter().map(|&a| u64::from(a) + 1).product();
        if size > 20_000 {
            std::process::exit(3);
        }
        games.push(piles);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for mut piles in games {
        piles.sort_unstable();
        out.push_str(if wins(&piles, &mut memo) { "first\n" } else { "second\n" });
    }
    print!("{out}");
}
