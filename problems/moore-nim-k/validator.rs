// Validator for `moore-nim-k`: line 1 `n k` with 1 <= k <= n <= 10^5; line 2:
// n pile sizes (1..=10^9) separated by single spaces; `\n` after each line;
// nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("n", 1, 100_000);
    inp.space();
    inp.int_as("k", 1, n);
    inp.newline();
    inp.int_line_as("a", n as usize, 1, 1_000_000_000);
    inp.eof();
}
