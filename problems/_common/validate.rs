//! The validators' shared toolkit: a strict reader over the whole of stdin.
//! Include it from a problem's `validator.rs` with
//!
//! ```ignore
//! #[path = "../_common/validate.rs"]
//! mod validate;
//! ```
//!
//! Every method checks the exact bytes: one space between tokens, `\n` line
//! ends (no `\r`), no leading zeros or `+` signs, no trailing garbage. A
//! violation exits with status 1 and one line on stderr naming the byte
//! offset and what was expected, which `grundy gen` reports with the test.
//!
//! A validator declares the bounds it checks by naming them, as testlib's
//! validators name their variables: `int_as("n", 1, 100_000)`,
//! `int_line_as("a", n, 1, 10^9)`, or `bound("sum n", total, 1, 10^6)` for
//! a value it computes. Run with the argument `--bounds`, a valid input
//! ends with one line per name on stdout — `bound NAME LO HI MIN MAX` with
//! MIN/MAX 1 where some value met the lower/upper bound of its check —,
//! from which `grundy verify` tells whether the tests reach each bound.
#![allow(dead_code)]

use std::io::Read;

pub struct Input {
    bytes: Vec<u8>,
    pos: usize,
    /// Declared bounds in the order first met: name, the widest range,
    /// whether a value met its lower and its upper bound.
    bounds: Vec<(String, i64, i64, bool, bool)>,
}

impl Input {
    pub fn from_stdin() -> Input {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .expect("reading stdin");
        Input { bytes, pos: 0, bounds: Vec::new() }
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Input {
        Input { bytes, pos: 0, bounds: Vec::new() }
    }

    /// Rejects the input: one line on stderr, exit status 1.
    pub fn fail(&self, what: &str) -> ! {
        let line = 1 + self.bytes[..self.pos].iter().filter(|&&b| b == b'\n').count();
        eprintln!("line {line} (byte {}): {what}", self.pos);
        std::process::exit(1)
    }

    /// Checks a condition about values already read.
    pub fn ensure(&self, ok: bool, what: &str) {
        if !ok {
            self.fail(what);
        }
    }

    fn token(&mut self) -> &[u8] {
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            self.fail("expected a token");
        }
        &self.bytes[start..self.pos]
    }

    /// Reads an integer in `lo..=hi` in canonical form.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        let at = self.pos;
        let tok = self.token().to_vec();
        let text = String::from_utf8_lossy(&tok).into_owned();
        let digits = text.strip_prefix('-').unwrap_or(&text);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && text != "-0";
        let value = if canonical { text.parse::<i64>().ok() } else { None };
        match value {
            Some(v) if (lo..=hi).contains(&v) => v,
            Some(v) => {
                self.pos = at;
                self.fail(&format!("{v} is outside [{lo}, {hi}]"))
            }
            None => {
                self.pos = at;
                self.fail(&format!("expected an integer, found {text:?}"))
            }
        }
    }

    /// Reads an integer in `lo..=hi`, declared as the bound `name`.
    pub fn int_as(&mut self, name: &str, lo: i64, hi: i64) -> i64 {
        let v = self.int(lo, hi);
        self.record(name, v, lo, hi);
        v
    }

    /// Checks a value the validator computed (a sum, a count) against the
    /// bound `name`, and declares it.
    pub fn bound(&mut self, name: &str, value: i64, lo: i64, hi: i64) {
        if value < lo || value > hi {
            self.fail(&format!("{name} = {value} is outside [{lo}, {hi}]"));
        }
        self.record(name, value, lo, hi);
    }

    fn record(&mut self, name: &str, v: i64, lo: i64, hi: i64) {
        match self.bounds.iter_mut().find(|b| b.0 == name) {
            Some(b) => {
                b.1 = b.1.min(lo);
                b.2 = b.2.max(hi);
                b.3 |= v == lo;
                b.4 |= v == hi;
            }
            None => self.bounds.push((name.to_string(), lo, hi, v == lo, v == hi)),
        }
    }

    /// Reads a token made only of the given characters, of length in `lo..=hi`.
    pub fn word(&mut self, allowed: &dyn Fn(u8) -> bool, lo: usize, hi: usize) -> String {
        let at = self.pos;
        let tok = self.token().to_vec();
        if tok.len() < lo || tok.len() > hi || !tok.iter().all(|&b| allowed(b)) {
            self.pos = at;
            self.fail(&format!("unexpected token {:?}", String::from_utf8_lossy(&tok)));
        }
        String::from_utf8_lossy(&tok).into_owned()
    }

    fn byte(&mut self, want: u8, name: &str) {
        if self.bytes.get(self.pos) != Some(&want) {
            self.fail(&format!("expected {name}"));
        }
        self.pos += 1;
    }

    /// Exactly one space.
    pub fn space(&mut self) {
        self.byte(b' ', "a single space");
    }

    /// Exactly one `\n`.
    pub fn newline(&mut self) {
        self.byte(b'\n', "a newline");
    }

    /// Whether the input is fully consumed.
    pub fn at_eof(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// The end of input: nothing may follow.
    pub fn eof(&self) {
        if !self.at_eof() {
            self.fail("expected end of file");
        }
        if std::env::args().any(|a| a == "--bounds") {
            for (name, lo, hi, min, max) in &self.bounds {
                println!("bound {} {lo} {hi} {} {}", name.replace(' ', "_"), *min as u8, *max as u8);
            }
        }
    }

    /// `count` integers in `lo..=hi` separated by single spaces, then `\n`.
    pub fn int_line(&mut self, count: usize, lo: i64, hi: i64) -> Vec<i64> {
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            if i > 0 {
                self.space();
            }
            out.push(self.int(lo, hi));
        }
        self.newline();
        out
    }

    /// [`Input::int_line`], every value declared as the bound `name`.
    pub fn int_line_as(&mut self, name: &str, count: usize, lo: i64, hi: i64) -> Vec<i64> {
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            if i > 0 {
                self.space();
            }
            out.push(self.int_as(name, lo, hi));
        }
        self.newline();
        out
    }
}
