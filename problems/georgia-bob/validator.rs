// Validator for `georgia-bob` (POJ 1704 format): line 1 `T` (1..=20); then per
// test a line `N` (1..=1000) and a line of N distinct positions (1..=10000),
// in any order, separated by single spaces. Every line ends with `\n`;
// nothing follows the last line.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 20);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("N", 1, 1000);
        inp.newline();
        let mut p = inp.int_line_as("P", n as usize, 1, 10_000);
        p.sort_unstable();
        inp.ensure(p.windows(2).all(|w| w[0] != w[1]), "two pieces on the same cell");
    }
    inp.eof();
}
