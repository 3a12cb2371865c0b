//! The lines checker: line by line, ignoring whitespace at the end of
//! each line (a `\r` included) and empty lines at the end of the output.

use std::io::{self, BufRead};

use super::{show, CheckResult};

/// Compares `output` with `answer` line by line.
pub fn check(mut answer: impl BufRead, mut output: impl BufRead) -> io::Result<CheckResult> {
    let (mut a, mut o) = (Vec::new(), Vec::new());
    let mut line = 0u64;
    loop {
        line += 1;
        let more_a = next_line(&mut answer, &mut a)?;
        let more_o = next_line(&mut output, &mut o)?;
        if !more_a && !more_o {
            return Ok(CheckResult::accepted());
        }
        if a == o {
            continue;
        }
        // Past the end, only empty lines may follow on either side.
        if !more_a && o.is_empty() && rest_is_blank(&mut output, &mut o)? {
            return Ok(CheckResult::accepted());
        }
        if !more_o && a.is_empty() && rest_is_blank(&mut answer, &mut a)? {
            return Ok(CheckResult::accepted());
        }
        let message = match (more_a, more_o) {
            (true, true) => format!("line {line}: expected {}, found {}", show(&a), show(&o)),
            (true, false) => format!("line {line}: expected {}, found end of output", show(&a)),
            _ => format!("line {line}: expected end of output, found {}", show(&o)),
        };
        return Ok(CheckResult::wrong(message));
    }
}

/// Reads one line without its trailing whitespace into `buf`; false at the
/// end of the stream.
fn next_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    if r.read_until(b'\n', buf)? == 0 {
        return Ok(false);
    }
    while buf.last().is_some_and(u8::is_ascii_whitespace) {
        buf.pop();
    }
    Ok(true)
}

/// Whether every remaining line is blank.
fn rest_is_blank(r: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    while next_line(r, buf)? {
        if !buf.is_empty() {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Decision;

    #[test]
    fn trailing_space_and_blank_lines_at_the_end_are_ignored_but_not_inside() {
        let table = [
            ("a b\nc\n", "a b  \nc\r\n\n\n", true),
            ("a b\nc\n", "a b\n\nc\n", false),
            ("a b\n", "a  b\n", false),
            ("a\n\n", "a", true),
            ("a\n", "a\nb\n", false),
        ];
        for (a, o, ok) in table {
            let r = check(a.as_bytes(), o.as_bytes()).unwrap();
            assert_eq!(
                r.decision == Decision::Accepted,
                ok,
                "{a:?} vs {o:?}: {}",
                r.message
            );
            let r = check(o.as_bytes(), a.as_bytes()).unwrap();
            assert_eq!(
                r.decision == Decision::Accepted,
                ok,
                "symmetric {o:?} vs {a:?}"
            );
        }
    }
}
