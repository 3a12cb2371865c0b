// Validator for `lasker-nim` (HDU 3032 format): line 1 `T` (1..=100); then per
// test a line `N` (1..=10^6) and a line of N pile sizes (1..=2^31-1) separated
// by single spaces. The N of all tests together are at most 10^6. Every line
// ends with `\n`; nothing follows the last line.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 100);
    inp.newline();
    let mut total = 0i64;
    for _ in 0..t {
        let n = inp.int_as("N", 1, 1_000_000);
        total += n;
        inp.ensure(total <= 1_000_000, "the sum of N exceeds 10^6");
        inp.newline();
        inp.int_line_as("s", n as usize, 1, 2_147_483_647);
    }
    inp.eof();
}
