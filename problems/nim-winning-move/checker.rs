// Checker for `nim-winning-move`, testlib protocol (std only):
//
//     checker <input> <output> <answer>
//
// exit 0: accepted; 1: wrong answer; 3: the checker's own failure (a bad input
// or answer file: the judge's fault). The message goes to stderr.
//
// Per position (a "case") the output holds one token `lose`, or two integers
// `i x`. With X the XOR of the heaps:
//   X = 0  -> the token must be `lose`;
//   X != 0 -> 1 <= i <= n, 1 <= x <= a_i and X ^ a_i ^ (a_i - x) = 0.
// Tokens are separated by any whitespace (line breaks are not checked). An
// integer is an optional sign and decimal digits (leading zeros allowed), of
// any length: `+3` and `003` are 3; `-1` or a 40-digit number is an integer out
// of range, not a crash. Anything else, a missing case or any output after the
// last case is a wrong answer. The answer file (the reference's output) must
// say `lose` exactly where X = 0 and otherwise hold a valid winning move; if
// not, the checker fails (exit 3).
//
// The output is read as a stream and a token is never held beyond its first
// bytes, so a hostile output (huge tokens, binary bytes) costs no memory.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::process::exit;

const WRONG: i32 = 1;
const FAIL: i32 = 3;

fn quit(code: i32, message: &str) -> ! {
    eprintln!("{message}");
    exit(code)
}

/// The bytes of a token kept for messages.
const HEAD: usize = 32;
/// Significant digits beyond which an integer is only "huge".
const MAX_DIGITS: usize = 30;

/// An integer token's value.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Int {
    Value(i128),
    /// More than MAX_DIGITS significant digits; true when negative.
    Huge(bool),
}

struct Token {
    head: Vec<u8>,
    len: u64,
    int: Option<Int>,
}

impl Token {
    fn is(&self, word: &str) -> bool {
        self.len == word.len() as u64 && self.head == word.as_bytes()
    }

    /// The token quoted for a message, cut to its first bytes.
    fn show(&self) -> String {
        let text: String = String::from_utf8_lossy(&self.head)
            .chars()
            .map(|c| if c.is_control() || c == '\u{fffd}' { '?' } else { c })
            .collect();
        if self.len > self.head.len() as u64 {
            format!("`{text}...` ({} bytes)", self.len)
        } else {
            format!("`{text}`")
        }
    }
}

/// Whitespace-separated tokens of a stream, classified as they are read.
struct Tokens<R: BufRead> {
    reader: R,
    what: &'static str,
}

impl<R: BufRead> Tokens<R> {
    fn next(&mut self) -> Option<Token> {
        let mut head = Vec::new();
        let mut len = 0u64;
        // Integer state: sign seen, digits only so far, significant digits.
        let mut negative = false;
        let mut digits_only = true;
        let mut any_digit = false;
        let mut significant = 0usize;
        let mut value: i128 = 0;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) => quit(FAIL, &format!("cannot read the {}: {e}", self.what)),
            };
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut ended = false;
            for &b in buf {
                if b.is_ascii_whitespace() {
                    if len > 0 {
                        ended = true;
                        break;
                    }
                    used += 1;
                    continue;
                }
                used += 1;
                if head.len() < HEAD {
                    head.push(b);
                }
                if len == 0 && (b == b'-' || b == b'+') {
                    negative = b == b'-';
                } else if b.is_ascii_digit() {
                    any_digit = true;
                    if significant > 0 || b != b'0' {
                        significant += 1;
                        if significant <= MAX_DIGITS {
                            value = value * 10 + i128::from(b - b'0');
                        }
                    }
                } else {
                    digits_only = false;
                }
                len += 1;
            }
            self.reader.consume(used);
            if ended {
                break;
            }
        }
        if len == 0 {
            return None;
        }
        let int = (digits_only && any_digit).then(|| {
            if significant > MAX_DIGITS {
                Int::Huge(negative)
            } else {
                Int::Value(if negative { -value } else { value })
            }
        });
        Some(Token { head, len, int })
    }
}

fn open(path: &str, what: &'static str) -> Tokens<BufReader<File>> {
    match File::open(path) {
        Ok(f) => Tokens {
            reader: BufReader::with_capacity(1 << 16, f),
            what,
        },
        Err(e) => quit(FAIL, &format!("cannot open the {what} {path}: {e}")),
    }
}

/// The input, trusted to be valid (the validator proved it); any surprise is
/// the judge's failure.
fn read_input(path: &str) -> Vec<Vec<u64>> {
    let mut text = Vec::new();
    if let Err(e) = File::open(path).and_then(|mut f| f.read_to_end(&mut text)) {
        quit(FAIL, &format!("cannot read the input {path}: {e}"));
    }
    let mut nums = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| match std::str::from_utf8(t).ok().and_then(|s| s.parse::<u64>().ok()) {
            Some(v) => v,
            None => quit(FAIL, "the input holds a token that is not a number"),
        });
    let mut next = |what: &str| match nums.next() {
        Some(v) => v,
        None => quit(FAIL, &format!("the input ends early (expected {what})")),
    };
    let t = next("T");
    let mut cases = Vec::new();
    for _ in 0..t {
        let n = next("n");
        let mut heaps = Vec::new();
        for _ in 0..n {
            heaps.push(next("a heap size"));
        }
        cases.push(heaps);
    }
    cases
}

/// What one file (output or answer) says of one case.
enum Said {
    Lose,
    Move(Int, Int),
}

/// Why a claimed move is not a winning move, or None when it is.
fn fault(heaps: &[u64], xor: u64, i: Int, x: Int) -> Option<String> {
    let n = heaps.len();
    let i = match i {
        Int::Value(v) if v >= 1 && v <= n as i128 => v as usize,
        Int::Value(v) => return Some(format!("heap {v} does not exist (heaps are 1..{n})")),
        Int::Huge(_) => return Some(format!("the heap number is far outside 1..{n}")),
    };
    let a = heaps[i - 1];
    let x = match x {
        Int::Value(v) if v >= 1 && v <= i128::from(a) => v as u64,
        Int::Value(v) if v < 1 => {
            return Some(format!("taking {v} stones from heap {i}: a move takes at least 1"))
        }
        Int::Value(v) if a == 0 => return Some(format!("taking {v} from heap {i}, which is empty")),
        Int::Value(v) => return Some(format!("taking {v} from heap {i}, which holds only {a}")),
        Int::Huge(true) => return Some(format!("taking a huge negative number of stones from heap {i}")),
        Int::Huge(false) => return Some(format!("taking a huge number of stones from heap {i}, which holds {a}")),
    };
    let left = xor ^ a ^ (a - x);
    if left != 0 {
        return Some(format!("taking {x} from heap {i} leaves XOR {left}"));
    }
    None
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        quit(FAIL, "usage: checker <input> <output> <answer>");
    }
    let cases = read_input(&args[1]);
    let mut output = open(&args[2], "output");
    let mut answer = open(&args[3], "answer");
    let total = cases.len();

    for (k, heaps) in cases.iter().enumerate() {
        let case = k + 1;
        let xor = heaps.iter().fold(0u64, |acc, &a| acc ^ a);

        // The answer file first: it must be consistent, or the judge is wrong.
        let judge_fail = |why: String| -> ! { quit(FAIL, &format!("answer file, case {case}: {why}")) };
        let expected = match answer.next() {
            None => judge_fail("the answer file ends early".into()),
            Some(tok) if tok.is("lose") => Said::Lose,
            Some(tok) => {
                let i = tok.int.unwrap_or_else(|| judge_fail(format!("{} is not `lose` or a heap number", tok.show())));
                let x = match answer.next() {
                    Some(t) => t.int.unwrap_or_else(|| judge_fail(format!("{} is not a number of stones", t.show()))),
                    None => judge_fail("the answer file ends after a heap number".into()),
                };
                Said::Move(i, x)
            }
        };
        match (&expected, xor) {
            (Said::Lose, 0) => {}
            (Said::Lose, _) => judge_fail(format!("says `lose` but the XOR is {xor}")),
            (Said::Move(..), 0) => judge_fail("names a move but the XOR is 0".into()),
            (Said::Move(i, x), _) => {
                if let Some(why) = fault(heaps, xor, *i, *x) {
                    judge_fail(format!("its move is not winning: {why}"));
                }
            }
        }

        // Then the contestant's output.
        let wrong = |why: String| -> ! { quit(WRONG, &format!("case {case}: {why}")) };
        let tok = match output.next() {
            Some(t) => t,
            None => wrong(format!(
                "the output ends; expected `lose` or a move (there are {total} cases)"
            )),
        };
        if xor == 0 {
            if !tok.is("lose") {
                wrong(format!(
                    "the XOR of the heaps is 0, so the player to move loses: expected `lose`, found {}",
                    tok.show()
                ));
            }
            continue;
        }
        let example = match expected {
            Said::Move(Int::Value(i), Int::Value(x)) => format!("e.g. taking {x} from heap {i}"),
            _ => String::new(),
        };
        if tok.is("lose") {
            wrong(format!("says `lose`, but the XOR is {xor} and a winning move exists ({example})"));
        }
        let i = match tok.int {
            Some(i) => i,
            None => wrong(format!("expected `lose` or a heap number, found {}", tok.show())),
        };
        let x = match output.next() {
            None => wrong("the output ends after the heap number; expected the number of stones".into()),
            Some(t) => match t.int {
                Some(x) => x,
                None => wrong(format!("expected the number of stones to take, found {}", t.show())),
            },
        };
        if let Some(why) = fault(heaps, xor, i, x) {
            wrong(why);
        }
    }
    if let Some(tok) = answer.next() {
        quit(FAIL, &format!("the answer file goes on after case {total}: {}", tok.show()));
    }
    if let Some(tok) = output.next() {
        quit(WRONG, &format!("extra output after the last case ({total}): {}", tok.show()));
    }
    eprintln!("ok {total} cases");
}
