// Validator for ring-game: N (2..20) on the first line, then N edge values (0..30) on one
// line separated by single spaces, at least one of them 0; '\n' line ends, nothing after.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("N", 2, 20) as usize;
    inp.newline();
    let e = inp.int_line_as("e", n, 0, 30);
    inp.ensure(e.contains(&0), "no edge has value 0");
    inp.eof();
}
