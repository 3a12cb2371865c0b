// Validator for `dag-game`: line 1 `N M K` (1 <= N <= 2000, 1 <= M <= 6000,
// 1 <= K <= N); then M lines `X Y` (1 <= X, Y <= N, X != Y; an edge may be
// repeated); then one line with K node numbers in 1..=N (repeats allowed).
// The graph must be acyclic. Single spaces, `\n` line ends, nothing after.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int(1, 2000) as usize;
    inp.space();
    let m = inp.int(1, 6000) as usize;
    inp.space();
    let k = inp.int(1, n as i64) as usize;
    inp.newline();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut indeg = vec![0usize; n + 1];
    for _ in 0..m {
        let x = inp.int(1, n as i64) as usize;
        inp.space();
        let y = inp.int(1, n as i64) as usize;
        inp.ensure(x != y, "an edge X -> X is a cycle");
        inp.newline();
        out[x].push(y);
        indeg[y] += 1;
    }
    inp.int_line(k, 1, n as i64);
    inp.eof();
    // Kahn's algorithm: every node must be removed.
    let mut stack: Vec<usize> = (1..=n).filter(|&u| indeg[u] == 0).collect();
    let mut removed = 0;
    while let Some(u) = stack.pop() {
        removed += 1;
        for &v in &out[u] {
            indeg[v] -= 1;
            if indeg[v] == 0 {
                stack.push(v);
            }
        }
    }
    inp.ensure(removed == n, "the graph has a directed cycle");
}
