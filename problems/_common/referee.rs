//! The interactors' shared referee: it runs a match of T games between the
//! judge and the program over stdin/stdout, so an interactive problem's
//! `interactor.rs` only describes its game. Include it beside the PRNG:
//!
//! ```ignore
//! #[path = "../_common/rng.rs"]
//! mod rng;
//! #[path = "../_common/referee.rs"]
//! mod referee;
//! ```
//!
//! Protocol (testlib: `interactor <input> <output-for-checker>`):
//!
//! * the referee writes T; per game it writes the game's announcement
//!   ([`Game::announce`]); the program answers `first` or `second`; then the
//!   two sides move in turn, one move a line, starting with the first player;
//!   the side to move in a position without moves has lost; nothing is
//!   written at the end of a game but the next game's announcement;
//! * every line the referee writes is flushed at once;
//! * an unknown answer, a malformed or illegal move, a lost game, the end of
//!   the program's output before the match is over, or anything the program
//!   writes after the last game is WA (exit 1) with one message on stderr
//!   naming the game, the move number, the position and the move; winning
//!   every game is AC (exit 0); a broken input or a game without the winning
//!   move its value promises is the referee's own failure (exit 3).
//!
//! The judge's play: from a position of non-zero value it plays a move to a
//! position of value 0 (the program erred: the judge wins); from a position
//! of value 0 it picks among [`Game::lasting`] moves. Every choice is drawn
//! from a SplitMix64 stream seeded by a hash of the whole test input and the
//! game's number, so a rerun of the same program is the same match.
//!
//! The program's choices (`first`/`second`, one a line) go to the
//! output-for-checker file, where a checker could compare them.
#![allow(dead_code)]

use std::io::{BufRead, Read, Write};

use crate::rng::Rng;

/// One game of the match, with its own data (piles, a graph, ...).
pub trait Game {
    /// A position; the side to move is the referee's business.
    type Pos: Clone;
    type Move: Clone;

    /// The lines that start the game (each ended by `\n`).
    fn announce(&self) -> String;
    fn start(&self) -> Self::Pos;
    /// Every legal move from `pos`.
    fn moves(&self, pos: &Self::Pos) -> Vec<Self::Move>;
    /// Whether the side to move has no move (and so has lost).
    fn terminal(&self, pos: &Self::Pos) -> bool {
        self.moves(pos).is_empty()
    }
    /// The value of `pos` from the theory (an SG value, a XOR of them):
    /// 0 exactly when the side to move loses with best play.
    fn value(&self, pos: &Self::Pos) -> u64;
    /// The value after `mv`; override when it is cheaper than playing it.
    fn value_after(&self, pos: &Self::Pos, mv: &Self::Move) -> u64 {
        let mut next = pos.clone();
        self.play(&mut next, mv);
        self.value(&next)
    }
    /// The judge's candidates from a position of value 0 (it cannot win
    /// there): by default every move; a game narrows them to moves that
    /// make the game last.
    fn lasting(&self, _pos: &Self::Pos, moves: Vec<Self::Move>) -> Vec<Self::Move> {
        moves
    }
    /// A move as the program wrote it (one line, without its `\n`); `Err`
    /// says why the line is not a move (malformed).
    fn parse(&self, line: &str) -> Result<Self::Move, String>;
    /// Whether a parsed move is legal from `pos`; `Err` says why not.
    fn check(&self, pos: &Self::Pos, mv: &Self::Move) -> Result<(), String>;
    fn play(&self, pos: &mut Self::Pos, mv: &Self::Move);
    /// A position, for messages (`piles 3 0 5`).
    fn show_pos(&self, pos: &Self::Pos) -> String;
    /// A move, as the referee writes it to the program.
    fn show_move(&self, mv: &Self::Move) -> String;
}

/// The referee's own failure: exit 3.
pub fn fail(why: &str) -> ! {
    eprintln!("interactor failure: {why}");
    std::process::exit(3)
}

/// A wrong answer: exit 1.
pub fn wrong(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(1)
}

/// The test input (the file named by the first argument), with a reader
/// over its whitespace-separated tokens.
pub struct TestInput {
    pub bytes: Vec<u8>,
    tokens: Vec<String>,
    at: usize,
}

impl TestInput {
    /// Reads `argv[1]`; a missing or unreadable file is the referee's failure.
    pub fn from_args() -> TestInput {
        let path = std::env::args()
            .nth(1)
            .unwrap_or_else(|| fail("usage: interactor <input> <output-for-checker>"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| fail(&format!("reading {path}: {e}")));
        let tokens = String::from_utf8_lossy(&bytes)
            .split_ascii_whitespace()
            .map(str::to_string)
            .collect();
        TestInput { bytes, tokens, at: 0 }
    }

    /// The next token as a `T`; a missing or bad token is the referee's failure.
    pub fn next<T: std::str::FromStr>(&mut self) -> T {
        let tok = self
            .tokens
            .get(self.at)
            .unwrap_or_else(|| fail("the test input ends early"));
        self.at += 1;
        tok.parse()
            .unwrap_or_else(|_| fail(&format!("bad token {tok:?} in the test input")))
    }

    /// FNV-1a of the whole input: the seed of the judge's choices.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &self.bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

/// The program's end of the match.
struct Line {
    stdin: std::io::StdinLock<'static>,
    stdout: std::io::StdoutLock<'static>,
}

impl Line {
    fn send(&mut self, text: &str) {
        let sent = self
            .stdout
            .write_all(text.as_bytes())
            .and_then(|()| self.stdout.flush());
        if sent.is_err() {
            wrong("the program stopped reading before the match was over");
        }
    }

    /// The program's next line without its line end, or `None` at the end
    /// of its output.
    fn receive(&mut self) -> Option<String> {
        let mut buf = Vec::new();
        match self.stdin.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                Some(String::from_utf8_lossy(&buf).into_owned())
            }
            Err(_) => None,
        }
    }
}

/// A line of the program's, shortened for a message.
fn quote(line: &str) -> String {
    let short: String = line.chars().take(60).collect();
    if short.len() < line.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

/// Plays the match: every game of `games` in order, against the program on
/// stdin/stdout. Exits 0 when the program won them all; never returns.
pub fn run<G: Game>(input: &TestInput, games: &[G]) -> ! {
    let mut line = Line {
        stdin: std::io::stdin().lock(),
        stdout: std::io::stdout().lock(),
    };
    let seed = input.hash();
    let mut choices = String::new();
    let mut total_moves = 0u64;
    line.send(&format!("{}\n", games.len()));
    for (gi, game) in games.iter().enumerate() {
        let g = gi + 1;
        let mut rng = Rng::new(seed ^ (g as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        line.send(&game.announce());
        let choice = line
            .receive()
            .unwrap_or_else(|| wrong(&format!("game {g}: the program stopped before answering first or second")));
        let mut program_to_move = match choice.trim() {
            "first" => true,
            "second" => false,
            _ => wrong(&format!(
                "game {g}: expected `first` or `second`, found {}",
                quote(&choice)
            )),
        };
        choices.push_str(choice.trim());
        choices.push('\n');
        let mut pos = game.start();
        let mut number = 0u64; // moves made in this game
        loop {
            if game.terminal(&pos) {
                if program_to_move {
                    wrong(&format!(
                        "game {g}: the program lost: no move left at {} after the judge's move {number}",
                        game.show_pos(&pos)
                    ));
                }
                break; // the judge has no move: the program won this game
            }
            number += 1;
            if program_to_move {
                let text = line.receive().unwrap_or_else(|| {
                    wrong(&format!(
                        "game {g}, move {number}: the program stopped (end of its output) at {}",
                        game.show_pos(&pos)
                    ))
                });
                let mv = game.parse(&text).unwrap_or_else(|why| {
                    wrong(&format!(
                        "game {g}, move {number}: at {}, malformed move {}: {why}",
                        game.show_pos(&pos),
                        quote(&text)
                    ))
                });
                if let Err(why) = game.check(&pos, &mv) {
                    wrong(&format!(
                        "game {g}, move {number}: at {}, illegal move {}: {why}",
                        game.show_pos(&pos),
                        quote(&text)
                    ));
                }
                game.play(&mut pos, &mv);
            } else {
                let moves = game.moves(&pos);
                let candidates = if game.value(&pos) != 0 {
                    let winning: Vec<G::Move> = moves
                        .into_iter()
                        .filter(|m| game.value_after(&pos, m) == 0)
                        .collect();
                    if winning.is_empty() {
                        fail(&format!(
                            "game {g}, move {number}: no winning move from {} of non-zero value",
                            game.show_pos(&pos)
                        ));
                    }
                    winning
                } else {
                    game.lasting(&pos, moves)
                };
                if candidates.is_empty() {
                    fail(&format!("game {g}, move {number}: no candidate move"));
                }
                let mv = rng.pick(&candidates).clone();
                line.send(&format!("{}\n", game.show_move(&mv)));
                game.play(&mut pos, &mv);
            }
            program_to_move = !program_to_move;
        }
        total_moves += number;
    }
    finish(line, &choices);
    eprintln!(
        "the program won all {} games ({total_moves} moves)",
        games.len()
    );
    std::process::exit(0)
}

/// After the last game: closes the program's input (a program waiting for
/// more sees its end), then reads its output to the end; anything but
/// whitespace is WA. Writes the choices for the checker.
fn finish(line: Line, choices: &str) {
    if let Some(path) = std::env::args().nth(2) {
        if std::fs::write(&path, choices).is_err() {
            fail(&format!("writing {path}"));
        }
    }
    let Line { mut stdin, stdout } = line;
    drop(stdout);
    close_stdout();
    let mut rest = Vec::new();
    let _ = stdin.read_to_end(&mut rest);
    let text = String::from_utf8_lossy(&rest);
    if !text.trim().is_empty() {
        wrong(&format!(
            "the program wrote after the last game: {}",
            quote(text.trim())
        ));
    }
}

#[cfg(unix)]
fn close_stdout() {
    use std::os::fd::FromRawFd;
    // SAFETY: fd 1 is ours; nothing writes to stdout after this (the
    // messages go to stderr), and the handle's buffer was flushed.
    drop(unsafe { std::fs::File::from_raw_fd(1) });
}

#[cfg(not(unix))]
fn close_stdout() {}
