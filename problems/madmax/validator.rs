// Validator for madmax: "n m" (2 <= n <= 100, 1 <= m <= n(n-1)/2), then m lines "v u c"
// with 1 <= v, u <= n, v != u, c one lowercase letter; at most one edge per pair of
// vertices; the graph is acyclic; '\n' line ends, nothing after.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("n", 2, 100) as usize;
    inp.space();
    let m = inp.int_as("m", 1, (n * (n - 1) / 2) as i64) as usize;
    inp.newline();
    let mut seen = vec![vec![false; n + 1]; n + 1];
    let mut adj = vec![Vec::new(); n + 1];
    let mut indeg = vec![0usize; n + 1];
    for _ in 0..m {
        let v = inp.int(1, n as i64) as usize;
        inp.space();
        let u = inp.int(1, n as i64) as usize;
        inp.space();
        inp.word(&|b: u8| b.is_ascii_lowercase(), 1, 1);
        inp.newline();
        inp.ensure(v != u, "an edge joins a vertex to itself");
        inp.ensure(!seen[v][u] && !seen[u][v], "two edges join the same pair of vertices");
        seen[v][u] = true;
        adj[v].push(u);
        indeg[u] += 1;
    }
    inp.eof();
    // Kahn's algorithm: every vertex must come out
    let mut stack: Vec<usize> = (1..=n).filter(|&v| indeg[v] == 0).collect();
    let mut done = 0;
    while let Some(v) = stack.pop() {
        done += 1;
        for &u in &adj[v] {
            indeg[u] -= 1;
            if indeg[u] == 0 {
                stack.push(u);
            }
        }
    }
    inp.ensure(done == n, "the graph has a cycle");
}
