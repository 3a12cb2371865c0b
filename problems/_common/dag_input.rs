//! Reading one game of pieces on a DAG as `dag-game`'s input writes it, for
//! the validators of `dag-game` and `dag-duel` (whose input is several such
//! games). Include it after the reader:
//!
//! ```ignore
//! #[path = "../_common/validate.rs"]
//! mod validate;
//! #[path = "../_common/dag_input.rs"]
//! mod dag_input;
//! ```

use crate::validate::Input;

/// Reads `N M K` (1 <= N <= 2000, 1 <= M <= 6000, 1 <= K <= `kmax`, or
/// <= N without one), the M edges `X Y` (1 <= X, Y <= N, X != Y; an edge
/// may repeat) and the line of K piece nodes in 1..=N (repeats allowed),
/// and rejects a graph with a directed cycle.
pub fn game(inp: &mut Input, kmax: Option<i64>) {
    let n = inp.int_as("n", 1, 2000) as usize;
    inp.space();
    let m = inp.int_as("m", 1, 6000) as usize;
    inp.space();
    let k = inp.int_as("k", 1, kmax.unwrap_or(n as i64)) as usize;
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
