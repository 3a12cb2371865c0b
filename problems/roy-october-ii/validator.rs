#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int(1, 100_000);
    inp.newline();
    for _ in 0..t {
        inp.int(1, 50_000_000);
        inp.newline();
    }
    inp.eof();
}
