// Validator for `dag-duel` (what the interactor reads): line 1 `T` (1..=5);
// per game dag-game's input: `N M K` (1 <= N <= 2000, 1 <= M <= 6000,
// 1 <= K <= 10), M lines `X Y` (1 <= X, Y <= N, X != Y; repeats allowed), one
// line of K start nodes in 1..=N (repeats allowed); the graph acyclic; last
// line the seed of the judge's choices (0..=10^18). Single spaces, `\n` line
// ends, nothing after the seed.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int(1, 5);
    inp.newline();
    for _ in 0..t {
        let n = inp.int(1, 2000) as usize;
        inp.space();
        let m = inp.int(1, 6000) as usize;
        inp.space();
        let k = inp.int(1, 10) as usize;
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
    inp.int(0, 1_000_000_000_000_000_000);
    inp.newline();
    inp.eof();
}
