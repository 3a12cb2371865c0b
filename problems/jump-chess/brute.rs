// Brute force for `jump-chess`: memoised win/lose search over whole boards,
// with no Sprague-Grundy theory. A board is the list of its rows, each row a
// set of occupied columns (1..=20). A move takes one piece at column p: if
// column p+1 is free the piece goes there; otherwise it passes the whole run of
// pieces that follows and lands on the first free column after it; if that
// run reaches column 20 the piece cannot move. No move -> the player loses.
// Reach: per test the product over rows of C(21 - leftmost, pieces) (an upper
// bound on the boards that can occur) must be <= 400000, and the file's total
// <= 20000000; otherwise print nothing and exit 3.
use std::collections::HashMap;
use std::io::{self, Read};

type Board = Vec<[bool; 21]>; // index 1..=20 used

fn wins(board: &mut Board, memo: &mut HashMap<Board, bool>) -> bool {
    if let Some(&w) = memo.get(board) {
        return w;
    }
    let mut win = false;
    'outer: for r in 0..board.len() {
        for p in 1..=20usize {
            if !board[r][p] {
                continue;
            }
            let mut q = p + 1;
            while q <= 20 && board[r][q] {
                q += 1;
            }
            if q > 20 {
                continue; // the run reaches the edge: no move for this piece
            }
            board[r][p] = false;
            board[r][q] = true;
            let w = wins(board, memo);
            board[r][q] = false;
            board[r][p] = true;
            if !w {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(board.clone(), win);
    win
}

fn binom(n: u64, k: u64) -> u64 {
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut p = 0;
    let t = v[p];
    p += 1;
    let mut tests = Vec::new();
    let mut total: u64 = 0;
    for _ in 0..t {
        let n = v[p];
        p += 1;
        let mut board: Board = Vec::new();
        let mut bound: u64 = 1;
        for _ in 0..n {
            let m = v[p];
            p += 1;
            let mut row = [false; 21];
            for &c in &v[p..p + m] {
                row[c] = true;
            }
            p += m;
            if m > 0 {
                let left = *v[p - m..p].iter().min().unwrap() as u64;
                bound = bound.saturating_mul(binom(21 - left, m as u64));
            }
            if bound > 400_000 {
                std::process::exit(3);
            }
            board.push(row);
        }
        total += bound;
        tests.push(board);
    }
    if total > 20_000_000 {
        std::process::exit(3);
    }
    let mut out = String::new();
    for mut board in tests {
        let mut memo = HashMap::new();
        out.push_str(if wins(&mut board, &mut memo) { "YES\n" } else { "NO\n" });
    }
    print!("{out}");
}
