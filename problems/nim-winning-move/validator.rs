// Validator for `nim-winning-move`: line 1 `T` (1..=10^4); then per position a
// line `n` (1..=10^5) and a line of n heap sizes (0..=10^9) separated by single
// spaces; the sum of n over the file is at most 2*10^5; `\n` after every line;
// nothing else.
#[path = "../_common/validate.rs"]
mod validate;

const MAX_T: i64 = 10_000;
const MAX_N: i64 = 100_000;
const MAX_SUM_N: i64 = 200_000;
const MAX_A: i64 = 1_000_000_000;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, MAX_T);
    inp.newline();
    let mut sum_n = 0i64;
    for _ in 0..t {
        let n = inp.int_as("n", 1, MAX_N);
        inp.newline();
        sum_n += n;
        inp.ensure(
            sum_n <= MAX_SUM_N,
            &format!("the sum of n exceeds {MAX_SUM_N}"),
        );
        inp.int_line_as("a", n as usize, 0, MAX_A);
    }
    inp.eof();
}
