#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let mut cases = 0;
    // One or more test cases: "n\n" then n values on one line. The very last line may or may not
    // end with '\n'.
    loop {
        let n = inp.int_as("n", 1, 100) as usize;
        inp.newline();
        for i in 0..n {
            if i > 0 {
                inp.space();
            }
            inp.int_as("a", 1, 1000);
        }
        cases += 1;
        inp.ensure(cases <= 1000, "more than 1000 test cases");
        if inp.at_eof() {
            break;
        }
        inp.newline();
        if inp.at_eof() {
            break;
        }
    }
    inp.eof();
}
