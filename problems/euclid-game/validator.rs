// Validator for `euclid-game` (POJ 2348 format): lines `a b` with
// 1 <= a, b <= 2^31 - 1, one pair per line, single space, `\n` line ends;
// between 1 and 100000 pairs; then the line `0 0` (with its `\n`) and nothing
// after it.
#[path = "../_common/validate.rs"]
mod validate;

const TOP: i64 = 2_147_483_647;
const MAX_PAIRS: usize = 100_000;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let mut pairs = 0usize;
    loop {
        let a = inp.int_as("a", 0, TOP);
        inp.space();
        let b = inp.int_as("b", 0, TOP);
        inp.newline();
        if a == 0 && b == 0 {
            break;
        }
        inp.ensure(a >= 1 && b >= 1, "both numbers of a pair must be positive");
        pairs += 1;
        inp.ensure(pairs <= MAX_PAIRS, "more than 100000 pairs");
    }
    inp.ensure(pairs >= 1, "at least one pair must precede `0 0`");
    inp.eof();
}
