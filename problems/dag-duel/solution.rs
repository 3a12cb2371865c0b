// Reference for `dag-duel`: the answer file, one line per game: `first` when
// the XOR of the pieces' SG values is non-zero, else `second` (not read by
// the interactor; cross-checked with brute.rs).
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let t = it.next().unwrap();
    let mut res = String::new();
    for _ in 0..t {
        let (n, m, k) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        let mut out = vec![Vec::new(); n + 1];
        let mut indeg = vec![0usize; n + 1];
        for _ in 0..m {
            let (x, y) = (it.next().unwrap(), it.next().unwrap());
            out[x].push(y);
            indeg[y] += 1;
        }
        let mut order: Vec<usize> = (1..=n).filter(|&u| indeg[u] == 0).collect();
        let mut at = 0;
        while at < order.len() {
            let u = order[at];
            at += 1;
            for &v in &out[u] {
                indeg[v] -= 1;
                if indeg[v] == 0 {
                    order.push(v);
                }
            }
        }
        let mut sg = vec![0usize; n + 1];
        for &u in order.iter().rev() {
            let mut seen = vec![false; out[u].len() + 1];
            for &v in &out[u] {
                if sg[v] < seen.len() {
                    seen[sg[v]] = true;
                }
            }
            sg[u] = seen.iter().position(|&b| !b).unwrap();
        }
        let x = (0..k).fold(0, |x, _| x ^ sg[it.next().unwrap()]);
        res.push_str(if x != 0 { "first\n" } else { "second\n" });
    }
    print!("{res}");
}
