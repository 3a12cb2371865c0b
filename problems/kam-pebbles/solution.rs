// Reference solution for `kam-pebbles` (POI2009 KAM-Pebbles).
// With d_i = a_i - a_{i-1} (a_0 = 0), taking t stones from pile i turns
// d_i into d_i - t and d_{i+1} into d_{i+1} + t (nothing when i = n): a
// staircase Nim whose ground lies to the right of pile n. The first player wins
// iff d_n xor d_{n-2} xor d_{n-4} xor ... != 0 (parity anchored at the right).
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let u = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..u {
        let n = it.next().unwrap() as usize;
        let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
        let mut x = 0i64;
        let mut i = n; // 1-based index of d_i
        while i >= 1 {
            let prev = if i >= 2 { a[i - 2] } else { 0 };
            x ^= a[i - 1] - prev;
            if i < 2 {
                break;
            }
            i -= 2;
        }
        out.push_str(if x != 0 { "TAK\n" } else { "NIE\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
