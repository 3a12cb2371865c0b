// Validator for `dag-game`: line 1 `N M K` (1 <= N <= 2000, 1 <= M <= 6000,
// 1 <= K <= N); then M lines `X Y` (1 <= X, Y <= N, X != Y; an edge may be
// repeated); then one line with K node numbers in 1..=N (repeats allowed).
// The graph must be acyclic. Single spaces, `\n` line ends, nothing after.
#[path = "../_common/validate.rs"]
mod validate;
#[path = "../_common/dag_input.rs"]
mod dag_input;

fn main() {
    let mut inp = validate::Input::from_stdin();
    dag_input::game(&mut inp, None);
    inp.eof();
}
