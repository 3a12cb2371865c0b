// Validator for `split-nim`: line 1 `n` (1..=100); line 2: n pile sizes
// (1..=100) separated by single spaces; `\n` after each line; nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("n", 1, 100);
    inp.newline();
    inp.int_line_as("a", n as usize, 1, 100);
    inp.eof();
}
