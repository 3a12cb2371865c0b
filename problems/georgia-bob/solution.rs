// Reference solver for `georgia-bob` (POJ 1704 Georgia and Bob).
// Sort the pieces; with an odd count add a virtual piece at cell 0 (the wall).
// Pair them from the left: (p1, p2), (p3, p4), ... The empty cells inside each
// pair form a Nim pile (moving the left piece of a pair toward the wall only
// widens a pair gap the opponent can close again, as in staircase Nim), so the
// first player wins iff the XOR of p_{2i} - p_{2i-1} - 1 is non-zero.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0')));
    let t = nums.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = nums.next().unwrap() as usize;
        let mut p: Vec<i64> = (0..n).map(|_| nums.next().unwrap()).collect();
        if n % 2 == 1 {
            p.push(0);
        }
        p.sort_unstable();
        let x = p.chunks(2).fold(0, |acc, pair| acc ^ (pair[1] - pair[0] - 1));
        out.push_str(if x != 0 { "Georgia will win\n" } else { "Bob will win\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
