// Generator for `dag-duel` (the interactor's input): T games, each drawn like
// one input of `dag-game` (problems/_common/dag.rs), then a seed line. Arguments:
//   T=<games> (default 3), and dag-game's arguments for every game (see dag.rs);
//   answer=any|win|lose|mix  mix alternates: odd games win (`first`), even games lose (`second`)
//   kmax is capped at 10 (K <= 10 here).
// Output: T, the games in dag-game's format, then the seed (a hash of the arguments).
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
    let t: usize = args.get("T", 3);
    let answer = args.str("answer", "any").to_string();
    let mut out = format!("{t}\n");
    for g in 0..t {
        let a = match answer.as_str() {
            "mix" => if g % 2 == 0 { "win" } else { "lose" },
            other => other,
        };
        out.push_str(&dag::one_game(&args, &mut rng, a, 10));
    }
    out.push_str(&plan::seed_line(&args));
    print!("{out}");
}
