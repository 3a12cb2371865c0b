// Validator for `nim-duel` (what the interactor reads): line 1 `T` (1..=20);
// per game a line `n` (1..=8) and a line of n piles (0..=100, at least one
// non-empty); last line the seed of the judge's choices (0..=10^18).
// Single spaces, `\n` line ends, nothing after the seed.
#[path = "../_common/validate.rs"]
mod validate;

fn main() {
    let mut inp = validate::Input::from_stdin();
    let t = inp.int_as("T", 1, 20);
    inp.newline();
    for _ in 0..t {
        let n = inp.int_as("n", 1, 8);
        inp.newline();
        let piles = inp.int_line_as("a", n as usize, 0, 100);
        inp.ensure(piles.iter().any(|&a| a > 0), "every pile of a game is empty");
    }
    inp.int(0, 1_000_000_000_000_000_000);
    inp.newline();
    inp.eof();
}
