// Validator for `kam-pebbles`: line 1 `u` (1..=10); then per arrangement a
// line `n` (1..=1000) and a line of n integers in 0..=10000, non-decreasing,
// separated by single spaces; `\n` after every line; nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let u = inp.int_as("u", 1, 10);
    inp.newline();
    for _ in 0..u {
        let n = inp.int_as("n", 1, 1000);
        inp.newline();
        let a = inp.int_line_as("a", n as usize, 0, 10_000);
        for i in 1..a.len() {
            inp.ensure(a[i - 1] <= a[i], "the pile sizes must be non-decreasing");
        }
    }
    inp.eof();
}
