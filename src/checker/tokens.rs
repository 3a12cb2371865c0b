//! The token checker: whitespace-insensitive, case-sensitive. A missing
//! final newline or extra spaces are accepted; a different word, a
//! different case, a missing or an extra token are not.

use super::CheckResult;

/// Compares `output` with `answer` token by token.
pub fn check_tokens(_input: &[u8], answer: &[u8], output: &[u8]) -> CheckResult {
    let mut want = answer
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let mut got = output
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let mut index = 0usize;
    loop {
        index += 1;
        match (want.next(), got.next()) {
            (None, None) => return CheckResult::accepted(),
            (Some(w), Some(g)) if w == g => {}
            (Some(w), Some(g)) => {
                return CheckResult::wrong(format!(
                    "token {index}: expected {}, found {}",
                    show(w),
                    show(g)
                ))
            }
            (Some(w), None) => {
                return CheckResult::wrong(format!(
                    "token {index}: expected {}, found end of output",
                    show(w)
                ))
            }
            (None, Some(g)) => {
                return CheckResult::wrong(format!(
                    "token {index}: expected end of output, found {}",
                    show(g)
                ))
            }
        }
    }
}

/// A token for a one-line message: quoted, and cut when long.
fn show(token: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(&token[..token.len().min(MAX)]);
    if token.len() > MAX {
        format!("{text:?}...")
    } else {
        format!("{text:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Decision;

    fn decide(answer: &str, output: &str) -> Decision {
        check_tokens(b"", answer.as_bytes(), output.as_bytes()).decision
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
        let r = check_tokens(b"", b"Yes\n", b"Yes\nNo\n");
        assert_eq!(r.decision, Decision::WrongAnswer);
        assert_eq!(r.message, "token 2: expected end of output, found \"No\"");
    }

    #[test]
    fn wrong_answer_when_output_is_short() {
        let r = check_tokens(b"", b"Yes\nNo\n", b"Yes\n");
        assert_eq!(r.message, "token 2: expected \"No\", found end of output");
    }

    #[test]
    fn long_tokens_are_cut_in_the_message() {
        let long = "x".repeat(1000);
        let r = check_tokens(b"", b"y", long.as_bytes());
        assert!(r.message.len() < 100, "{}", r.message);
    }
}
