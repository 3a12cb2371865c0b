// Reference solver for `dag-game` (AcWing 1319): Sprague-Grundy theory.
// SG(u) = mex of SG over the out-neighbours of u, computed in reverse
// topological order (iteratively, so long chains need no deep recursion);
// the pieces are independent games, so the first player wins iff the XOR of
// SG(start_i) over all pieces is non-zero.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.iter()
                .fold(0usize, |acc, &d| acc * 10 + usize::from(d - b'0'))
        });
    let mut next = || nums.next().unwrap();
    let (n, m, k) = (next(), next(), next());
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut indeg = vec![0usize; n + 1];
    for _ in 0..m {
        let (x, y) = (next(), next());
        out[x].push(y);
        indeg[y] += 1;
    }
    // Topological order (Kahn).
    let mut order: Vec<usize> = (1..=n).filter(|&u| indeg[u] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let u = order[head];
        head += 1;
        for &v in &out[u] {
            indeg[v] -= 1;
            if indeg[v] == 0 {
                order.push(v);
            }
        }
    }
    let mut sg = vec![0usize; n + 1];
    let mut mark = vec![0usize; n + 2]; // mark[g] == u: value g is taken at node u
    for &u in order.iter().rev() {
        for &v in &out[u] {
            mark[sg[v]] = u;
        }
        let mut g = 0;
        while mark[g] == u {
            g += 1;
        }
        sg[u] = g;
    }
    let x = (0..k).fold(0, |acc, _| acc ^ sg[next()]);
    let answer = if x != 0 { "win\n" } else { "lose\n" };
    io::stdout().write_all(answer.as_bytes()).unwrap();
}
