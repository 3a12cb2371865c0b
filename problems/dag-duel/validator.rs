// Validator for `dag-duel` (what the interactor reads): line 1 `T` (1..=5);
// per game dag-game's input: `N M K` (1 <= N <= 2000, 1 <= M <= 6000,
// 1 <= K <= 10), M lines `X Y` (1 <= X, Y <= N, X != Y; repeats allowed), one
// line of K start nodes in 1..=N (repeats allowed); the graph acyclic; last
// line the seed of the judge's choices (0..=10^18). Single spaces, `\n` line
// ends, nothing after the seed.
#[path = "../_common/validate.rs"]
mod validate;
#[path = "../_common/dag_input.rs"]
mod dag_input;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 5);
    inp.newline();
    for _ in 0..t {
        dag_input::game(&mut inp, Some(10));
    }
    inp.int(0, 1_000_000_000_000_000_000);
    inp.newline();
    inp.eof();
}
