// Reference solution. Heaps are independent, so the game is a sum. For a heap of p > 1 beads with
// proper divisors b_1..b_m, the move leaves every b_i except one b_j, whose value is
// X ^ SG(b_j) with X = SG(b_1) ^ ... ^ SG(b_m). Hence SG(1) = 0 and
//   SG(p) = mex { X ^ SG(b_j) : j = 1..m },
// and Freda (first) wins iff the XOR of SG(a_i) over all heaps is non-zero.
use std::io::{self, Read, Write};

const MAX: usize = 1000;

fn main() {
    let mut divs: Vec<Vec<usize>> = vec![Vec::new(); MAX + 1];
    for d in 1..=MAX {
        for m in (2 * d..=MAX).step_by(d) {
            divs[m].push(d);
        }
    }
    let mut sg = vec![0u32; MAX + 1];
    for p in 2..=MAX {
        let x = divs[p].iter().fold(0, |acc, &d| acc ^ sg[d]);
        let mut seen = 0u64;
        for &d in &divs[p] {
            seen |= 1 << (x ^ sg[d]);
        }
        sg[p] = (!seen).trailing_zeros();
    }
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0usize, |a, &d| a * 10 + usize::from(d - b'0')))
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < nums.len() {
        let n = nums[i];
        let x = nums[i + 1..i + 1 + n].iter().fold(0, |acc, &a| acc ^ sg[a]);
        out.push_str(if x != 0 { "freda\n" } else { "rainbow\n" });
        i += 1 + n;
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
