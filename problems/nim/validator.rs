// Validator for `nim`: line 1 `n` (1..=100000); line 2: n pile sizes
// (1..=10^9) separated by single spaces; `\n` after each line; nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("n", 1, 100_000);
    inp.newline();
    inp.int_line_as("a", n as usize, 1, 1_000_000_000);
    inp.eof();
}
