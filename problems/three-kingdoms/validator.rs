#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let n = inp.int_as("N", 4, 500) as usize;
    inp.ensure(n % 2 == 0, "N must be even");
    inp.newline();
    let mut all = Vec::with_capacity(n * (n - 1) / 2);
    for i in 1..n {
        all.extend(inp.int_line_as("rapport", n - i, 0, 1_000_000_000));
    }
    inp.eof();
    all.sort_unstable();
    inp.ensure(all.windows(2).all(|w| w[0] != w[1]), "rapport values are not all distinct");
}
