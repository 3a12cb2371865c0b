// Reference solver for `nim-winning-move`. Bouton: the player to move loses iff
// the XOR X of the heaps is 0. Otherwise a heap i with (a_i xor X) < a_i exists
// (any heap holding X's highest set bit); lowering it to a_i xor X makes the
// XOR 0, so the move takes a_i - (a_i xor X) stones. This names the FIRST such
// heap; the checker accepts any winning move.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')));
    let t = nums.next().unwrap();
    let mut out = String::new();
    let mut piles = Vec::new();
    for _ in 0..t {
        let n = nums.next().unwrap() as usize;
        piles.clear();
        piles.extend(nums.by_ref().take(n));
        let x = piles.iter().fold(0u64, |acc, &a| acc ^ a);
        if x == 0 {
            out.push_str("lose\n");
            continue;
        }
        let i = piles.iter().position(|&a| a ^ x < a).unwrap();
        let a = piles[i];
        out.push_str(&format!("{} {}\n", i + 1, a - (a ^ x)));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
