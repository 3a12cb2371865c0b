// Generator for `set-nim`. Arguments (key=value):
//   mode=random   k=<count> | kmax=<count> (k uniform in 1..=kmax)
//                 smin=1 smax=<max element of S>  S: k distinct values in smin..=smax
//                 step=<d>                   instead: S = {d, 2d, ..., kd} (shuffled)
//                 order=shuffled|asc|desc    order in which S is printed
//                 n=<count> | nmax=<count>, hmin=1 hmax=<max pile>
//                 answer=any|yes|no|xor      (no: XOR of the SG values is 0;
//                                             xor: it is exactly xor=<v>)
//                 sgmin=<m>                  some pile has SG value >= m (default 0)
//                 sgall=<m>                  every pile has SG value >= m (default 0)
//   mode=range    k=<count> n=<count> h=<pile>   S = {1, ..., k} (shuffled), n piles of h
// Output: k, S, n, piles (one line each).
#[path = "../_common/rng.rs"]
mod rng;

use rng::{Args, Rng};

fn sg_table(set: &[u64], top: u64) -> Vec<u64> {
    let mut sg = vec![0u64; top as usize + 1];
    for x in 1..=top as usize {
        let mut seen = vec![false; set.len() + 1];
        for &s in set {
            if s as usize <= x {
                seen[sg[x - s as usize] as usize] = true;
            }
        }
        sg[x] = seen.iter().position(|&b| !b).unwrap() as u64;
    }
    sg
}

fn count(args: &Args, rng: &mut Rng, key: &str) -> usize {
    let max_key = format!("{key}max");
    if args.has(&max_key) {
        rng.range(1, args.get(&max_key, 1u64)) as usize
    } else {
        args.get(key, 1usize)
    }
}

fn line(v: &[u64]) -> String {
    let words: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    words.join(" ")
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let mode = args.str("mode", "random").to_string();
    let (set, piles) = match mode.as_str() {
        "random" => {
            let k = count(&args, &mut rng, "k");
            let smin: u64 = args.get("smin", 1);
            let smax: u64 = args.get("smax", 10_000);
            let mut set = if args.has("step") {
                // S = {d, 2d, ..., kd}, shuffled: SG(x) = (x / d) mod (k + 1).
                let d: u64 = args.get("step", 1);
                let mut set: Vec<u64> = (1..=k as u64).map(|i| i * d).collect();
                rng.shuffle(&mut set);
                set
            } else {
                rng.distinct(k, smin, smax)
            };
            match args.str("order", "shuffled") {
                "shuffled" => {}
                "asc" => set.sort_unstable(),
                "desc" => set.sort_unstable_by(|a, b| b.cmp(a)),
                other => panic!("unknown order={other}"),
            }
            let n = count(&args, &mut rng, "n");
            let hmin: u64 = args.get("hmin", 1);
            let hmax: u64 = args.get("hmax", 10_000);
            let sg = sg_table(&set, hmax);
            let answer = args.str("answer", "any").to_string();
            let mut piles = Vec::new();
            let mut done = false;
            for _attempt in 0..100_000 {
                piles = (0..n).map(|_| rng.range(hmin, hmax)).collect();
                let x = piles.iter().fold(0, |a, &h| a ^ sg[h as usize]);
                match answer.as_str() {
                    "any" => done = true,
                    "yes" => done = x != 0,
                    "no" | "xor" => {
                        // Re-draw the last pile among those with the needed SG value.
                        let target: u64 = if answer == "xor" { args.get("xor", 0) } else { 0 };
                        let need = x ^ sg[piles[n - 1] as usize] ^ target;
                        let fits: Vec<u64> =
                            (hmin..=hmax).filter(|&h| sg[h as usize] == need).collect();
                        if !fits.is_empty() {
                            piles[n - 1] = *rng.pick(&fits);
                            done = true;
                        }
                    }
                    other => panic!("unknown answer={other}"),
                }
                let sgmin: u64 = args.get("sgmin", 0);
                if done && piles.iter().all(|&h| sg[h as usize] < sgmin) {
                    done = false;
                }
                let sgall: u64 = args.get("sgall", 0);
                if done && piles.iter().any(|&h| sg[h as usize] < sgall) {
                    done = false;
                }
                if done {
                    break;
                }
            }
            assert!(done, "could not meet answer={answer}");
            (set, piles)
        }
        "range" => {
            let k: u64 = args.get("k", 1);
            let mut set: Vec<u64> = (1..=k).collect();
            rng.shuffle(&mut set);
            (set, vec![args.get("h", 1u64); args.get("n", 1usize)])
        }
        other => panic!("unknown mode={other}"),
    };
    print!("{}\n{}\n{}\n{}\n", set.len(), line(&set), piles.len(), line(&piles));
}
