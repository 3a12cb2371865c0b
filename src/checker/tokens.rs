//! Checkers that compare token by token, each with its own idea of two
//! equal tokens: exactly (`tokens`, the default: a missing final newline or
//! extra spaces are accepted; a different word, a different case, a
//! missing or an extra token are not), ignoring ASCII case, as integers of
//! any size, or as floating-point numbers within a tolerance.

use std::io::{self, BufRead};

use super::stream::{skip_common, Tokens};
use super::{show, CheckResult};

/// Compares `output` with `answer` token by token with `same`, which is
/// `reflexive` when every token is the same as itself (then identical
/// stretches of the two streams are skipped without tokenising them).
pub fn check(
    answer: impl BufRead,
    output: impl BufRead,
    same: impl Fn(&[u8], &[u8]) -> bool,
    reflexive: bool,
) -> io::Result<CheckResult> {
    let mut want = Tokens::new(answer);
    let mut got = Tokens::new(output);
    loop {
        if reflexive {
            skip_common(&mut want, &mut got)?;
        }
        // Both have read the same number of tokens so far.
        let index = want.count.max(got.count) + 1;
        let w = want.next_token()?;
        let g = got.next_token()?;
        let message = match (w, g) {
            (None, None) => return Ok(CheckResult::accepted()),
            (Some(w), Some(g)) if same(w, g) => continue,
            (Some(w), Some(g)) => format!("token {index}: expected {}, found {}", show(w), show(g)),
            (Some(w), None) => format!("token {index}: expected {}, found end of output", show(w)),
            (None, Some(g)) => format!("token {index}: expected end of output, found {}", show(g)),
        };
        return Ok(CheckResult::wrong(message));
    }
}

/// Whether two tokens are the same integer (any size, optional sign,
/// leading zeros), or, when either is not an integer, the same bytes.
pub fn same_integer(a: &[u8], b: &[u8]) -> bool {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// An integer token as (negative, digits without leading zeros); zero is
/// never negative.
fn integer(token: &[u8]) -> Option<(bool, &[u8])> {
    let (negative, digits) = match token.first()? {
        b'-' => (true, &token[1..]),
        b'+' => (false, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let first = digits.iter().position(|&d| d != b'0');
    match first {
        None => Some((false, &digits[digits.len() - 1..])),
        Some(i) => Some((negative, &digits[i..])),
    }
}

/// Whether `output` is within `abs` of `answer`, or within `rel` times
/// it, where `answer` is a number; `nan` and infinities are never close to
/// anything. Where `answer` is not a number, the bytes must be equal.
pub fn close(answer: &[u8], output: &[u8], abs: f64, rel: f64) -> bool {
    let Some(want) = number(answer) else {
        return answer == output;
    };
    let Some(got) = number(output) else {
        return false;
    };
    if !want.is_finite() || !got.is_finite() {
        return false;
    }
    let diff = (want - got).abs();
    diff <= abs || diff <= rel * want.abs()
}

fn number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{CheckerKind, Decision};

    fn decide(answer: &str, output: &str) -> Decision {
        CheckerKind::Tokens
            .check_bytes(answer.as_bytes(), output.as_bytes())
            .decision
    }

    #[test]
    fn accepts_equal_and_whitespace_variants() {
        let table = [
            ("Yes\n", "Yes\n"),
            ("Yes\n", "Yes"),
            ("Yes\n", "  Yes   \n\n"),
            ("1 2\n3\n", "1\n2 3"),
            ("a\r\nb\r\n", "a\nb\n"),
            ("", ""),
            ("", "\n \n"),
        ];
        for (answer, output) in table {
            assert_eq!(
                decide(answer, output),
                Decision::Accepted,
                "{answer:?} vs {output:?}"
            );
            assert_eq!(decide(output, answer), Decision::Accepted, "symmetric");
        }
    }

    #[test]
    fn wrong_answer_when_word_or_case_differs() {
        let table = [
            ("Yes\n", "No\n"),
            ("Yes\n", "yes\n"),
            ("Yes\n", "YES\n"),
            ("October wins!\n", "October wins\n"),
            ("12\n", "012\n"),
        ];
        for (answer, output) in table {
            assert_eq!(
                decide(answer, output),
                Decision::WrongAnswer,
                "{answer:?} vs {output:?}"
            );
            assert_eq!(decide(output, answer), Decision::WrongAnswer, "symmetric");
        }
    }

    #[test]
    fn wrong_answer_when_extra_token() {
        let r = CheckerKind::Tokens.check_bytes(b"Yes\n", b"Yes\nNo\n");
        assert_eq!(r.decision, Decision::WrongAnswer);
        assert_eq!(r.message, "token 2: expected end of output, found \"No\"");
    }

    #[test]
    fn wrong_answer_when_output_is_short() {
        let r = CheckerKind::Tokens.check_bytes(b"Yes\nNo\n", b"Yes\n");
        assert_eq!(r.message, "token 2: expected \"No\", found end of output");
    }

    #[test]
    fn long_tokens_are_cut_in_the_message() {
        let long = "x".repeat(1000);
        let r = CheckerKind::Tokens.check_bytes(b"y", long.as_bytes());
        assert!(r.message.len() < 100, "{}", r.message);
    }

    #[test]
    fn integers_of_any_size_compare_by_value() {
        let big = "123456789012345678901234567890123456789";
        let table = [
            (big, &*format!("+000{big}"), true),
            (big, &*format!("{big}0"), false),
            (&*format!("-{big}"), big, false),
            ("0", "-000", true),
            ("-5", "-05", true),
            ("5", "5.0", false),
            ("-", "-", true),
            ("+", "0", false),
        ];
        for (a, b, same) in table {
            assert_eq!(same_integer(a.as_bytes(), b.as_bytes()), same, "{a} vs {b}");
            assert_eq!(same_integer(b.as_bytes(), a.as_bytes()), same, "symmetric");
        }
    }

    #[test]
    fn floats_within_either_tolerance_and_never_nan_or_inf() {
        let table = [
            ("1", "1.0000009", 1e-6, 0.0, true),
            ("1", "1.000002", 1e-6, 0.0, false),
            ("1e9", "1000000500", 0.0, 1e-6, true),
            ("1e9", "1000002000", 0.0, 1e-6, false),
            ("2.5", "2.5e0", 0.0, 0.0, true),
            ("-.5", "-0.5", 0.0, 0.0, true),
            ("inf", "inf", 1.0, 1.0, false),
            ("nan", "nan", 1.0, 1.0, false),
            ("1", "nan", 1.0, 1.0, false),
            ("1", "one", 1.0, 1.0, false),
            ("Yes", "Yes", 1.0, 1.0, true),
            ("Yes", "yes", 1.0, 1.0, false),
        ];
        for (a, b, abs, rel, ok) in table {
            assert_eq!(
                close(a.as_bytes(), b.as_bytes(), abs, rel),
                ok,
                "{a} vs {b}"
            );
        }
    }
}
