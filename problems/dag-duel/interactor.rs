// Interactor for `dag-duel`: the referee of problems/_common/referee.rs with
// the game of `dag-game` (pieces sliding along the edges of a DAG). Input: T,
// per game dag-game's input (`N M K`, M edges, the K start nodes), then a
// seed line. Value of a position: the XOR of the pieces' SG values. From
// value 0 the judge moves a piece into a node of the largest SG value it can
// reach (chosen at random among those); otherwise it wins.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/referee.rs"]
mod referee;

use referee::{Game, TestInput};

struct Dag {
    /// Out-neighbours of each node (1-based; repeats kept).
    out: Vec<Vec<usize>>,
    sg: Vec<u64>,
    edges: Vec<(usize, usize)>,
    pieces: Vec<usize>,
}

/// Move piece `j` (1-based) to node `v`, as written: checked before played.
#[derive(Clone)]
struct Slide {
    j: i64,
    v: i64,
}

impl Dag {
    fn new(n: usize, edges: Vec<(usize, usize)>, pieces: Vec<usize>) -> Dag {
        let mut out = vec![Vec::new(); n + 1];
        let mut indeg = vec![0usize; n + 1];
        for &(x, y) in &edges {
            out[x].push(y);
            indeg[y] += 1;
        }
        // Kahn's order, then the mex in reverse order.
        let mut order: Vec<usize> = (1..=n).filter(|&u| indeg[u] == 0).collect();
        let mut at = 0;
        while at < order.len() {
            let u = order[at];
            at += 1;
            for &v in &out[u] {
                indeg[v] -= 1;
                if indeg[v] == 0 {
                    order.push(v);
                }
            }
        }
        if order.len() != n {
            referee::fail("the graph has a cycle");
        }
        let mut sg = vec![0u64; n + 1];
        for &u in order.iter().rev() {
            let mut seen = vec![false; out[u].len() + 1];
            for &v in &out[u] {
                if (sg[v] as usize) < seen.len() {
                    seen[sg[v] as usize] = true;
                }
            }
            sg[u] = seen.iter().position(|&s| !s).unwrap() as u64;
        }
        Dag { out, sg, edges, pieces }
    }
}

impl Game for Dag {
    type Pos = Vec<usize>;
    type Move = Slide;

    fn announce(&self) -> String {
        let n = self.out.len() - 1;
        let mut s = format!("{n} {} {}\n", self.edges.len(), self.pieces.len());
        for &(x, y) in &self.edges {
            s.push_str(&format!("{x} {y}\n"));
        }
        let p: Vec<String> = self.pieces.iter().map(usize::to_string).collect();
        s.push_str(&p.join(" "));
        s.push('\n');
        s
    }

    fn start(&self) -> Vec<usize> {
        self.pieces.clone()
    }

    fn moves(&self, pos: &Vec<usize>) -> Vec<Slide> {
        let mut moves = Vec::new();
        for (j, &u) in pos.iter().enumerate() {
            for &v in &self.out[u] {
                moves.push(Slide { j: j as i64 + 1, v: v as i64 });
            }
        }
        moves
    }

    fn terminal(&self, pos: &Vec<usize>) -> bool {
        pos.iter().all(|&u| self.out[u].is_empty())
    }

    fn value(&self, pos: &Vec<usize>) -> u64 {
        pos.iter().fold(0, |x, &u| x ^ self.sg[u])
    }

    fn value_after(&self, pos: &Vec<usize>, mv: &Slide) -> u64 {
        self.value(pos) ^ self.sg[pos[mv.j as usize - 1]] ^ self.sg[mv.v as usize]
    }

    fn lasting(&self, _pos: &Vec<usize>, moves: Vec<Slide>) -> Vec<Slide> {
        let best = moves.iter().map(|m| self.sg[m.v as usize]).max().unwrap_or(0);
        moves.into_iter().filter(|m| self.sg[m.v as usize] == best).collect()
    }

    fn parse(&self, line: &str) -> Result<Slide, String> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.len() != 2 {
            return Err(format!("expected two integers `j v`, found {} words", words.len()));
        }
        let num = |w: &str| -> Result<i64, String> {
            w.parse::<i64>().map_err(|_| format!("{w:?} is not an integer"))
        };
        Ok(Slide { j: num(words[0])?, v: num(words[1])? })
    }

    fn check(&self, pos: &Vec<usize>, mv: &Slide) -> Result<(), String> {
        let k = pos.len() as i64;
        if mv.j < 1 || mv.j > k {
            return Err(format!("there is no piece {} (pieces are numbered 1 to {k})", mv.j));
        }
        let u = pos[mv.j as usize - 1];
        if !self.out[u].iter().any(|&v| v as i64 == mv.v) {
            return Err(format!("piece {} is on node {u}, and there is no edge {u} -> {}", mv.j, mv.v));
        }
        Ok(())
    }

    fn play(&self, pos: &mut Vec<usize>, mv: &Slide) {
        pos[mv.j as usize - 1] = mv.v as usize;
    }

    fn show_pos(&self, pos: &Vec<usize>) -> String {
        let p: Vec<String> = pos.iter().map(usize::to_string).collect();
        format!("pieces on nodes [{}]", p.join(" "))
    }

    fn show_move(&self, mv: &Slide) -> String {
        format!("{} {}", mv.j, mv.v)
    }
}

fn main() {
    let mut input = TestInput::from_args();
    let t: usize = input.next();
    let games: Vec<Dag> = (0..t)
        .map(|_| {
            let (n, m, k): (usize, usize, usize) = (input.next(), input.next(), input.next());
            let edges: Vec<(usize, usize)> = (0..m).map(|_| (input.next(), input.next())).collect();
            if edges.iter().any(|&(x, y)| x < 1 || x > n || y < 1 || y > n) {
                referee::fail("an edge leaves the nodes 1..N");
            }
            let pieces: Vec<usize> = (0..k).map(|_| input.next()).collect();
            if pieces.iter().any(|&p| p < 1 || p > n) {
                referee::fail("a piece is off the nodes 1..N");
            }
            Dag::new(n, edges, pieces)
        })
        .collect();
    let _seed: u64 = input.next(); // part of the hash that seeds the judge
    referee::run(&input, &games)
}
