//! Reading whitespace-separated tokens from a stream without holding it in
//! memory: the checker of a 64 MiB output keeps only a buffer and the
//! current token.

use std::io::{self, BufRead};

/// The bytes `u8::is_ascii_whitespace` accepts, as a table (the hot loop).
const SPACE: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[0x0c] = true;
    t[b'\r' as usize] = true;
    t
};

/// Whether a byte is whitespace to a token checker.
pub fn is_space(b: u8) -> bool {
    SPACE[usize::from(b)]
}

/// Tokens of a stream, one at a time.
pub struct Tokens<R> {
    pub reader: R,
    token: Vec<u8>,
    /// How many tokens were read so far (the current one's 1-based index).
    pub count: usize,
}

impl<R: BufRead> Tokens<R> {
    pub fn new(reader: R) -> Tokens<R> {
        Tokens {
            reader,
            token: Vec::with_capacity(64),
            count: 0,
        }
    }

    /// The next token, or `None` at the end of the stream.
    ///
    /// # Errors
    /// When the stream cannot be read.
    pub fn next_token(&mut self) -> io::Result<Option<&[u8]>> {
        self.token.clear();
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let mut start = 0;
            if self.token.is_empty() {
                while start < buf.len() && SPACE[usize::from(buf[start])] {
                    start += 1;
                }
            }
            let end = buf[start..]
                .iter()
                .position(|&b| SPACE[usize::from(b)])
                .map(|i| start + i);
            match end {
                Some(end) => {
                    self.token.extend_from_slice(&buf[start..end]);
                    self.reader.consume(end);
                    if !self.token.is_empty() {
                        break;
                    }
                }
                None => {
                    self.token.extend_from_slice(&buf[start..]);
                    let n = buf.len();
                    self.reader.consume(n);
                }
            }
        }
        if self.token.is_empty() {
            return Ok(None);
        }
        self.count += 1;
        Ok(Some(&self.token))
    }
}

/// Skips the longest run of identical bytes at the front of both streams
/// that ends with whitespace (so both stop between tokens), counting the
/// tokens skipped in each. Identical bytes hold identical tokens, which
/// every reflexive comparison accepts: the common case of an accepted
/// output costs a memory comparison, not a tokenisation.
///
/// Both must be between tokens (at the start, or just after one).
///
/// # Errors
/// When a stream cannot be read.
pub fn skip_common<A: BufRead, B: BufRead>(a: &mut Tokens<A>, b: &mut Tokens<B>) -> io::Result<()> {
    // Just after a token (or at the very start, which counts as after
    // whitespace): a token starts where a non-space follows a space.
    let mut after_space = a.count == 0;
    loop {
        let x = a.reader.fill_buf()?;
        let y = b.reader.fill_buf()?;
        let n = common_prefix(x, y);
        let Some(last_space) = x[..n].iter().rposition(|&c| is_space(c)) else {
            return Ok(());
        };
        let cut = last_space + 1;
        let mut starts = 0usize;
        for &c in &x[..cut] {
            let space = is_space(c);
            starts += usize::from(after_space && !space);
            after_space = space;
        }
        a.count += starts;
        b.count += starts;
        a.reader.consume(cut);
        b.reader.consume(cut);
    }
}

/// The length of the longest common prefix, a machine word at a time.
fn common_prefix(x: &[u8], y: &[u8]) -> usize {
    let n = x.len().min(y.len());
    let mut i = 0;
    while i + 8 <= n && x[i..i + 8] == y[i..i + 8] {
        i += 8;
    }
    while i < n && x[i] == y[i] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], capacity: usize) -> Vec<String> {
        let mut t = Tokens::new(io::BufReader::with_capacity(capacity, text));
        let mut out = Vec::new();
        while let Some(tok) = t.next_token().unwrap() {
            out.push(String::from_utf8_lossy(tok).into_owned());
        }
        out
    }

    #[test]
    fn skipping_stops_between_tokens_and_counts_them() {
        // Buffers of odd sizes: the skip stops at buffer ends too.
        for (ca, cb) in [(4, 3), (1, 1), (2, 5), (64, 64)] {
            let a = io::BufReader::with_capacity(ca, &b"ab cd  efg hi"[..]);
            let b = io::BufReader::with_capacity(cb, &b"ab cd  efX hi"[..]);
            let r = crate::checker::tokens::check(a, b, |x, y| x == y, true).unwrap();
            assert_eq!(
                r.message, "token 3: expected \"efg\", found \"efX\"",
                "{ca} {cb}"
            );
        }
    }

    #[test]
    fn a_token_split_differently_is_not_skipped_as_equal() {
        let mut a = Tokens::new(&b"abc"[..]);
        let mut b = Tokens::new(&b"ab c"[..]);
        skip_common(&mut a, &mut b).unwrap();
        assert_eq!(a.next_token().unwrap(), Some(&b"abc"[..]));
        assert_eq!(b.next_token().unwrap(), Some(&b"ab"[..]));
    }

    #[test]
    fn tokens_split_on_any_whitespace_across_buffer_boundaries() {
        let text = b"  ab\tcd\r\n\x0cefg  \n\nh";
        for capacity in [1, 2, 3, 7, 4096] {
            assert_eq!(all(text, capacity), ["ab", "cd", "efg", "h"], "{capacity}");
        }
        assert!(all(b" \n\t", 2).is_empty());
        assert!(all(b"", 2).is_empty());
    }
}
