// Reference solution: with takes {1} ∪ primes, no legal take is a multiple of 4, while 1, 2 and 3
// are all legal. So from n ≡ 0 (mod 4) every move leaves a non-multiple of 4, and from any other n
// taking n mod 4 leaves a multiple of 4. The first player loses iff n mod 4 = 0.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |a, &d| a * 10 + u64::from(d - b'0')));
    let t = nums.next().unwrap();
    let mut out = String::with_capacity(t as usize * 14);
    for _ in 0..t {
        let n = nums.next().unwrap();
        out.push_str(if n % 4 == 0 { "Roy wins!\n" } else { "October wins!\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
