// SG values in reverse topological order; first iff their XOR is non-zero;
// each move restores XOR 0. Flushes after every line.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.unwrap());
    let mut out = io::stdout();
    let nums = |lines: &mut dyn Iterator<Item = String>| -> Vec<usize> {
        lines.next().unwrap().split_whitespace().map(|w| w.parse().unwrap()).collect()
    };
    let t = nums(&mut lines)[0];
    for _ in 0..t {
        let h = nums(&mut lines);
        let (n, m) = (h[0], h[1]);
        let mut g = vec![Vec::new(); n + 1];
        let mut indeg = vec![0usize; n + 1];
        for _ in 0..m {
            let e = nums(&mut lines);
            g[e[0]].push(e[1]);
            indeg[e[1]] += 1;
        }
        let mut p = nums(&mut lines);
        let mut order: Vec<usize> = (1..=n).filter(|&u| indeg[u] == 0).collect();
        let mut at = 0;
        while at < order.len() {
            let u = order[at];
            at += 1;
            for &v in &g[u] {
                indeg[v] -= 1;
                if indeg[v] == 0 {
                    order.push(v);
                }
            }
        }
        let mut sg = vec![0usize; n + 1];
        for &u in order.iter().rev() {
            let mut seen = vec![false; g[u].len() + 1];
            for &v in &g[u] {
                if sg[v] < seen.len() {
                    seen[sg[v]] = true;
                }
            }
            sg[u] = seen.iter().position(|&b| !b).unwrap();
        }
        let xor = |p: &[usize]| p.iter().fold(0, |x, &u| x ^ sg[u]);
        let mut mine = xor(&p) != 0;
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while p.iter().any(|&u| !g[u].is_empty()) {
            if mine {
                let x = xor(&p);
                let (j, v) = (0..p.len())
                    .find_map(|j| g[p[j]].iter().find(|&&v| sg[v] == sg[p[j]] ^ x).map(|&v| (j, v)))
                    .unwrap();
                writeln!(out, "{} {}", j + 1, v).unwrap();
                out.flush().unwrap();
                p[j] = v;
            } else {
                let mv = nums(&mut lines);
                p[mv[0] - 1] = mv[1];
            }
            mine = !mine;
        }
    }
}
