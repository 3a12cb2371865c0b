use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s
        .split_ascii_whitespace()
        .map(|x| x.parse::<usize>().unwrap());
    // w[a][b]: the player to move wins with a 1-piles and b moves in the rest.
    const A: usize = 52;
    const B: usize = 50_400;
    let mut w = vec![vec![false; B + 1]; A];
    for a in 0..A - 1 {
        // b = 0 first: (a, 1) is the same position as (a + 1, 0).
        w[a][0] = (a >= 1 && !w[a - 1][0]) || (a >= 2 && !w[a - 2][2]);
        let next0 = !w[a][0] || (a >= 1 && !w[a - 1][2]);
        w[a][1] = next0;
        for b in 2..=B - 3 * a - 3 {
            w[a][b] = !w[a][b - 1]
                || (a >= 1 && !w[a - 1][b])
                || (a >= 2 && !w[a - 2][b + 3])
                || (a >= 1 && !w[a - 1][b + 1]);
        }
    }
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let (mut a, mut b) = (0, 0);
        for _ in 0..n {
            let x = it.next().unwrap();
            if x == 1 {
                a += 1;
            } else if b == 0 {
                b = x;
            } else {
                b += x + 1;
            }
        }
        out.push_str(if w[a][b] { "YES\n" } else { "NO\n" });
    }
    print!("{out}");
}
