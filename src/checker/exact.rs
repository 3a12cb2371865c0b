//! The exact checker: every byte, whitespace included, streamed.

use std::io::{self, BufRead};

use super::CheckResult;

/// Compares `output` with `answer` byte by byte.
pub fn check(mut answer: impl BufRead, mut output: impl BufRead) -> io::Result<CheckResult> {
    let mut offset = 0u64;
    loop {
        let (a, o) = (answer.fill_buf()?, output.fill_buf()?);
        if a.is_empty() || o.is_empty() {
            let message = match (a.is_empty(), o.is_empty()) {
                (true, true) => return Ok(CheckResult::accepted()),
                (true, false) => format!("byte {}: expected end of output", offset + 1),
                _ => format!("byte {}: output ends early", offset + 1),
            };
            return Ok(CheckResult::wrong(message));
        }
        let n = a.len().min(o.len());
        if let Some(i) = (0..n).find(|&i| a[i] != o[i]) {
            return Ok(CheckResult::wrong(format!(
                "byte {}: expected {:?}, found {:?}",
                offset + i as u64 + 1,
                char::from(a[i]),
                char::from(o[i])
            )));
        }
        answer.consume(n);
        output.consume(n);
        offset += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_byte_is_named() {
        let r = check(&b"1 2\n"[..], &b"1  2\n"[..]).unwrap();
        assert_eq!(r.message, "byte 3: expected '2', found ' '");
        let r = check(&b"ab"[..], &b"ab\n"[..]).unwrap();
        assert_eq!(r.message, "byte 3: expected end of output");
        let r = check(&b"ab\n"[..], &b"ab"[..]).unwrap();
        assert_eq!(r.message, "byte 3: output ends early");
    }
}
