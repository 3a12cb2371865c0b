// Validator for `set-nim`: `k` (1..=100); k distinct values (1..=10000) in any
// order; `n` (1..=100); n pile sizes (1..=10000). One line each, single spaces,
// `\n` after every line, nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let k = inp.int_as("k", 1, 100);
    inp.newline();
    let set = inp.int_line_as("s", k as usize, 1, 10_000);
    let mut sorted = set.clone();
    sorted.sort_unstable();
    sorted.dedup();
    inp.ensure(sorted.len() == set.len(), "the values of S must be distinct");
    let n = inp.int_as("n", 1, 100);
    inp.newline();
    inp.int_line_as("h", n as usize, 1, 10_000);
    inp.eof();
}
