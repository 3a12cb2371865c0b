// Validator for left-right-stones: T (1..10); per test n (1..1000) on its own line,
// then n pile sizes (1..10^9) on one line; single spaces, '\n' line ends, nothing after.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 10);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("n", 1, 1000) as usize;
        inp.newline();
        inp.int_line_as("a", n, 1, 1_000_000_000);
    }
    inp.eof();
}
