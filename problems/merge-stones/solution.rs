// Reference solver for `merge-stones` (AcWing 1321, origin LA 5760).
//
// Split a position into its 1-piles (count a) and its "big part", the piles of
// size >= 2. Inside the big part every pile can be merged into one and then
// reduced stone by stone, so its length in moves is
//     b = (number of piles >= 2) + (their total) - 1     (b = 0 if there are none),
// and the player who wants to change its parity can always do so through the
// 1-piles, which are the only real choice. The game on (a, b):
//   * take a 1-pile                     -> (a - 1, b)
//   * one move inside the big part      -> (a, b - 1)          (b >= 2)
//   * merge two 1-piles into a 2-pile   -> (a - 2, 2) if b = 0, else (a - 2, b + 3)
//   * merge a 1-pile into the big part  -> (a - 1, b + 1)      (b >= 2)
// and b = 1 means the big part is a single pile of one stone: (a, 1) = (a + 1, 0).
// The table is computed once for a <= 50 and every reachable b.
use std::io::{self, Read, Write};

const AMAX: usize = 50;
const BMAX: usize = 50_400;

fn table() -> Vec<Vec<bool>> {
    let extent = |a: usize| BMAX - 2 * a; // row a is needed up to b = extent(a)
    let mut win: Vec<Vec<bool>> = Vec::with_capacity(AMAX + 1);
    for a in 0..=AMAX {
        let mut row = vec![false; extent(a) + 1];
        // b = 0: only 1-piles.
        row[0] = (a >= 1 && !win[a - 1][0]) || (a >= 2 && !win[a - 2][2]);
        for b in 1..=extent(a) {
            row[b] = if b == 1 {
                // (a + 1, 0): take a 1-pile -> (a, 0); merge two -> (a - 1, 2).
                !row[0] || (a >= 1 && !win[a - 1][2])
            } else {
                !row[b - 1]
                    || (a >= 1 && !win[a - 1][b])
                    || (a >= 2 && !win[a - 2][b + 3])
                    || (a >= 1 && !win[a - 1][b + 1])
            };
        }
        win.push(row);
    }
    win
}

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.iter()
                .fold(0usize, |acc, &d| acc * 10 + usize::from(d - b'0'))
        });
    let win = table();
    let t = nums.next().unwrap();
    let mut out = String::with_capacity(4 * t);
    for _ in 0..t {
        let n = nums.next().unwrap();
        let (mut a, mut big, mut total) = (0, 0, 0);
        for _ in 0..n {
            let x = nums.next().unwrap();
            if x == 1 {
                a += 1;
            } else {
                big += 1;
                total += x;
            }
        }
        let b = if big == 0 { 0 } else { big + total - 1 };
        out.push_str(if win[a][b] { "YES\n" } else { "NO\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
