#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 100_000);
    inp.newline();
    for _ in 0..t {
        inp.int_as("n", 1, 50_000_000);
        inp.newline();
    }
    inp.eof();
}
