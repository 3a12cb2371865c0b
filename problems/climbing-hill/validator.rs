// Validator for `climbing-hill`: test cases until the end of the file, at
// least 1 and at most 1000 of them, with the sum of N at most 200000. Each case
// is a line `N k` (1 <= k <= N <= 1000) and a line of N strictly increasing
// distances in 1..=99999, separated by single spaces. Lines end with `\n`,
// except that the very last line may end at the end of the file instead.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let mut cases = 0usize;
    let mut total = 0i64;
    loop {
        let n = inp.int_as("N", 1, 1000);
        inp.space();
        inp.int_as("M", 1, n);
        inp.newline();
        let mut prev = 0;
        for i in 0..n {
            if i > 0 {
                inp.space();
            }
            let d = inp.int_as("d", 1, 99_999);
            inp.ensure(d > prev, "the distances must be strictly increasing");
            prev = d;
        }
        cases += 1;
        total += n;
        inp.ensure(cases <= 1000, "more than 1000 test cases");
        inp.ensure(total <= 200_000, "the sum of N exceeds 200000");
        if inp.at_eof() {
            break; // the last line without its newline
        }
        inp.newline();
        if inp.at_eof() {
            break;
        }
    }
    inp.eof();
}
