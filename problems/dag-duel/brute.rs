// Brute force for `dag-duel`: per game, a memoised win/lose search over the
// sorted tuple of the pieces' nodes (a move slides one piece along an edge;
// no move: the side to move has lost): `first` when the start wins, else
// `second`. Declines (exit 3) a test with a game of more than 12 nodes or 4
// pieces.
use std::collections::HashMap;
use std::io::Read;

fn wins(pos: &Vec<usize>, out: &[Vec<usize>], memo: &mut HashMap<Vec<usize>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut win = false;
    'all: for j in 0..pos.len() {
        for &v in &out[pos[j]] {
            let mut next = pos.clone();
            next[j] = v;
            next.sort_unstable();
            if !wins(&next, out, memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(pos.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let t = it.next().unwrap();
    let mut res = String::new();
    for _ in 0..t {
        let (n, m, k) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        if n > 12 || k > 4 {
            std::process::exit(3);
        }
        let mut out = vec![Vec::new(); n + 1];
        for _ in 0..m {
            let (x, y) = (it.next().unwrap(), it.next().unwrap());
            out[x].push(y);
        }
        let mut pos: Vec<usize> = (0..k).map(|_| it.next().unwrap()).collect();
        pos.sort_unstable();
        let mut memo = HashMap::new();
        res.push_str(if wins(&pos, &out, &mut memo) { "first\n" } else { "second\n" });
    }
    print!("{res}");
}
