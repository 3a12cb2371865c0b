#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let mut lines = 0;
    // One or more lines "W H"; the last one may or may not end with '\n'.
    loop {
        inp.int_as("W", 2, 200);
        inp.space();
        inp.int_as("H", 2, 200);
        lines += 1;
        inp.ensure(lines <= 100_000, "more than 100000 lines");
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
