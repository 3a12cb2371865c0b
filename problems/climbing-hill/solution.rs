// Reference solution for `climbing-hill` (HDU 4315 Climbing the Hill).
// k = 1: Alice moves the king straight to the top. Otherwise nobody wants to be
// the one who brings person k-1 to the top (the king would follow at once), and
// the game is a staircase Nim on the gaps: with N even, XOR the gaps
// a_{2i} - a_{2i-1} - 1 of the pairs (a1,a2), (a3,a4), ...; with N odd, the top
// acts as a person at -1, the first pair is (top, a1) with gap a1, and when
// k = 2 that gap is a1 - 1 (person 1 must stop one cell below the top, since
// reaching the top would hand the king to the opponent). Non-zero -> Alice.
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let mut out = String::new();
    while let Some(n) = it.next() {
        let n = n as usize;
        let k = it.next().unwrap();
        let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
        let alice = if k == 1 {
            true
        } else {
            let mut x = 0i64;
            let mut i = 0usize;
            if n % 2 == 1 {
                x ^= if k == 2 { a[0] - 1 } else { a[0] };
                i = 1;
            }
            while i + 1 < n {
                x ^= a[i + 1] - a[i] - 1;
                i += 2;
            }
            x != 0
        };
        out.push_str(if alice { "Alice\n" } else { "Bob\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
