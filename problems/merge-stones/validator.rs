// Validator for `merge-stones`: line 1 `T` (1..=100); then per test case a
// line `N` (1..=50) and a line of N pile sizes (1..=1000) separated by single
// spaces; `\n` after every line; nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 100);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("N", 1, 50);
        inp.newline();
        inp.int_line_as("a", n as usize, 1, 1000);
    }
    inp.eof();
}
