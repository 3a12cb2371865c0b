// Reference for `nim-duel`: the answer file, one line per game: `first` when
// the XOR of the piles is non-zero (the first player wins), else `second`.
// The interactor does not read it; `grundy verify` cross-checks it with
// brute.rs. (The winning play itself is in submissions/accepted/.)
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let x = (0..n).fold(0, |x, _| x ^ it.next().unwrap());
        out.push_str(if x != 0 { "first\n" } else { "second\n" });
    }
    print!("{out}");
}
