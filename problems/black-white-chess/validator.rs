// Validator for `black-white-chess`: one line `n k d` with
// 1 <= d <= k <= n <= 10000, k even, k <= 100; single spaces, `\n`, nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("n", 1, 10_000);
    inp.space();
    let k = inp.int_as("k", 1, 100);
    inp.space();
    let d = inp.int_as("d", 1, 100);
    inp.newline();
    inp.eof();
    inp.ensure(k % 2 == 0, "k must be even");
    inp.ensure(k <= n, "k must not exceed n");
    inp.ensure(d <= k, "d must not exceed k");
}
