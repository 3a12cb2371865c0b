// Generator for `dag-game`: one game of pieces on a DAG, drawn as
// problems/_common/dag.rs says from these arguments (shape, n, m, k,
// labels, dup, pieces, start, minsg) and answer=any|win|lose.
// Output: `N M K`, the M edges `X Y`, the K starting nodes on one line.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;
#[path = "../_common/dag.rs"]
mod dag;

use rng::{Args, Rng};

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let answer = args.str("answer", "any").to_string();
    print!("{}", dag::one_game(&args, &mut rng, &answer, u64::MAX));
}
