// Validator for `plate-game`: one line `a b r`, each in 1..=100, separated by
// single spaces and ended by `\n`; nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    inp.int_line_as("abr", 3, 1, 100);
    inp.eof();
}
