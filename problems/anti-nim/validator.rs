// Validator for `anti-nim` (HDU 1907 format): line 1 `T` (1..=474); then per
// test a line `N` (1..=47) and a line of N pile sizes (1..=4747) separated by
// single spaces. Every line ends with `\n`; nothing follows the last line.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 474);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("N", 1, 47);
        inp.newline();
        inp.int_line_as("A", n as usize, 1, 4747);
    }
    inp.eof();
}
