// Validator for `jump-chess`: line 1 `T` (1..=100); per test a line `n`
// (1..=1000) and n row lines `m p_1 ... p_m` with 0 <= m <= 20 and m distinct
// columns 1..=20 in any order (a row with m = 0 is the line `0`). Single
// spaces, `\n` after every line, nothing else.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 100);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("n", 1, 1000);
        inp.newline();
        for _ in 0..n {
            let m = inp.int_as("m", 0, 20);
            let mut used = [false; 21];
            for _ in 0..m {
                inp.space();
                let p = inp.int_as("p", 1, 20) as usize;
                inp.ensure(!used[p], "two pieces on the same cell of a row");
                used[p] = true;
            }
            inp.newline();
        }
    }
    inp.eof();
}
