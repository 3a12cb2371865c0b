// Reference solver for `set-nim` (AcWing 893).
// SG(x) = mex{ SG(x - s) : s in S, s <= x }, filled bottom-up (no recursion);
// the first player wins iff the XOR of SG(h_i) is non-zero.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0usize, |acc, &d| acc * 10 + usize::from(d - b'0')));
    let k = nums.next().unwrap();
    let set: Vec<usize> = (0..k).map(|_| nums.next().unwrap()).collect();
    let n = nums.next().unwrap();
    let piles: Vec<usize> = (0..n).map(|_| nums.next().unwrap()).collect();
    let top = *piles.iter().max().unwrap();

    // A position has at most k options, so SG <= k; `mark[v] == x + 1` means
    // value v is an option of x.
    let mut sg = vec![0usize; top + 1];
    let mut mark = vec![0usize; k + 2];
    for x in 1..=top {
        for &s in &set {
            if s <= x {
                mark[sg[x - s]] = x + 1;
            }
        }
        let mut m = 0;
        while mark[m] == x + 1 {
            m += 1;
        }
        sg[x] = m;
    }
    let x = piles.iter().fold(0, |acc, &h| acc ^ sg[h]);
    let out = if x != 0 { "Yes\n" } else { "No\n" };
    io::stdout().write_all(out.as_bytes()).unwrap();
}
