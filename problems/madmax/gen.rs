// Generator for madmax: a random DAG with lettered edges.
// Arguments (all optional):
//   n=<max n> nmin=<min n>   n uniform in [nmin, n] (nmin defaults to n); 2 <= n <= 100
//   mode=random|complete|chain|layered|star|funnel
//       random:   every pair (earlier -> later in a hidden topological order) is an edge with
//                 probability density/100, or exactly m=<count> such pairs when m is given
//       complete: all n(n-1)/2 pairs
//       chain:    a Hamiltonian path, plus `extra=<k>` random forward edges (default 0)
//       layered:  `layers=<k>` layers (default 4); edges only from a layer to the next one,
//                 each with probability density/100
//       star:     one source with an edge to every other vertex, plus extra random edges
//       funnel:   every vertex has an edge to one sink, plus extra random edges
//   density=<pct>            default 50
//   letters=<k>              letters are drawn from k distinct random letters (default 26)
//   alpha=<letters>          letters are drawn from exactly these letters (overrides letters)
//   letter=order|rorder|random  random (default); order: the letter grows with the source's
//                 topological position; rorder: it shrinks
//   perm=1|0|rev             relabel the vertices randomly (default), keep the topological
//                 order as labels 1..n, or reverse it
//   seed=<anything>
#[path = "../_common/rng.rs"]
mod rng;

struct Edges {
    chosen: Vec<Vec<bool>>,
    pairs: Vec<(usize, usize)>,
}

impl Edges {
    fn add(&mut self, i: usize, j: usize) {
        if !self.chosen[i][j] {
            self.chosen[i][j] = true;
            self.pairs.push((i, j));
        }
    }
}

fn main() {
    let args = rng::Args::from_env();
    let mut r = rng::Rng::from_args(&args);
    let nmax: usize = args.get("n", 6);
    let nmin: usize = args.get("nmin", nmax);
    assert!(2 <= nmin && nmin <= nmax && nmax <= 100);
    let n = r.range(nmin as u64, nmax as u64) as usize;
    let mode = args.str("mode", "random").to_string();
    let density: u64 = args.get("density", 50);
    let k: usize = args.get("letters", 26);
    assert!(1 <= k && k <= 26);
    let letter_mode = args.str("letter", "random").to_string();
    let perm = args.str("perm", "1").to_string();
    let extra: usize = args.get("extra", 0);

    // vertices 0..n-1 in topological order; an edge (i, j) always has i < j
    let all: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| ((i + 1)..n).map(move |j| (i, j)))
        .collect();
    let mut e = Edges { chosen: vec![vec![false; n]; n], pairs: Vec::new() };
    match mode.as_str() {
        "random" => {
            if args.has("m") {
                let m: usize = args.get("m", 1);
                assert!(1 <= m && m <= all.len());
                let mut idx: Vec<usize> = (0..all.len()).collect();
                r.shuffle(&mut idx);
                for &t in idx.iter().take(m) {
                    e.add(all[t].0, all[t].1);
                }
            } else {
                for &(i, j) in &all {
                    if r.chance(density, 100) {
                        e.add(i, j);
                    }
                }
            }
        }
        "complete" => {
            for &(i, j) in &all {
                e.add(i, j);
            }
        }
        "chain" => {
            for i in 0..n - 1 {
                e.add(i, i + 1);
            }
            for _ in 0..extra {
                let (i, j) = *r.pick(&all);
                e.add(i, j);
            }
        }
        "layered" => {
            let layers: usize = args.get("layers", 4);
            assert!(2 <= layers && layers <= n);
            // layer of vertex i: cut points chosen at random, every layer non-empty
            let mut cuts = r.distinct(layers - 1, 1, (n - 1) as u64);
            cuts.sort();
            let mut layer = vec![0usize; n];
            for i in 0..n {
                layer[i] = cuts.iter().filter(|&&c| c as usize <= i).count();
            }
            for &(i, j) in &all {
                if layer[j] == layer[i] + 1 && r.chance(density, 100) {
                    e.add(i, j);
                }
            }
        }
        "star" => {
            for j in 1..n {
                e.add(0, j);
            }
            for _ in 0..extra {
                let (i, j) = *r.pick(&all);
                e.add(i, j);
            }
        }
        "funnel" => {
            for i in 0..n - 1 {
                e.add(i, n - 1);
            }
            for _ in 0..extra {
                let (i, j) = *r.pick(&all);
                e.add(i, j);
            }
        }
        _ => panic!("unknown mode {mode}"),
    }
    if e.pairs.is_empty() {
        let (i, j) = *r.pick(&all);
        e.add(i, j);
    }
    let mut pairs = e.pairs;

    // the alphabet
    let mut alphabet: Vec<u8> = (b'a'..=b'z').collect();
    r.shuffle(&mut alphabet);
    alphabet.truncate(k);
    if args.has("alpha") {
        alphabet = args.str("alpha", "").bytes().collect();
        assert!(!alphabet.is_empty() && alphabet.iter().all(|b| b.is_ascii_lowercase()));
    }
    alphabet.sort();
    let k = alphabet.len();
    let letter_of = |i: usize, r: &mut rng::Rng| -> u8 {
        match letter_mode.as_str() {
            "random" => *r.pick(&alphabet),
            "order" => alphabet[i * k / n],
            "rorder" => alphabet[(n - 1 - i) * k / n],
            _ => panic!("unknown letter mode {letter_mode}"),
        }
    };

    // labels
    let mut label: Vec<usize> = (1..=n).collect();
    match perm.as_str() {
        "1" => r.shuffle(&mut label),
        "0" => {}
        "rev" => label.reverse(),
        _ => panic!("unknown perm {perm}"),
    }
    r.shuffle(&mut pairs);
    let mut out = format!("{} {}\n", n, pairs.len());
    for &(i, j) in &pairs {
        let c = letter_of(i, &mut r);
        out.push_str(&format!("{} {} {}\n", label[i], label[j], c as char));
    }
    print!("{}", out);
}
