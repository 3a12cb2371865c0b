//! Checkers: compare a program's output with the expected answer. Built-in
//! checkers are pure functions over two byte streams (the answer and the
//! output); they know nothing of processes or the database, and run only
//! when the run itself succeeded. They stream: none holds a whole output in
//! memory but `unordered`, which must count every token. A problem's own
//! checker program ([`special`]) runs in the sandbox through a runner it
//! is handed.

mod exact;
pub mod interactor;
mod kattis;
mod lines;
pub mod special;
mod stream;
mod tokens;
mod unordered;

use std::io::{self, BufRead};

use serde::Deserialize;

/// What a checker decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    WrongAnswer,
    PresentationError,
}

/// A checker's decision and a one-line explanation, with the score a
/// special judge gave, if it gave one.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    pub decision: Decision,
    pub message: String,
    pub score: Option<Partial>,
}

/// A test's score as a special judge gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Partial {
    /// A share of the test's group points, in `[0, 1]` (testlib's
    /// `points X`, Kattis's `score_multiplier.txt`).
    Fraction(f64),
    /// Points out of the test's group points (Kattis's `score.txt`).
    Points(f64),
}

impl CheckResult {
    pub fn accepted() -> CheckResult {
        CheckResult {
            decision: Decision::Accepted,
            message: String::new(),
            score: None,
        }
    }

    pub fn wrong(message: String) -> CheckResult {
        CheckResult {
            decision: Decision::WrongAnswer,
            message,
            score: None,
        }
    }
}

/// The names of the built-in checkers in `problem.toml` (`checker = ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckerName {
    Tokens,
    Exact,
    Lines,
    CaseInsensitive,
    Float,
    Unordered,
    Integers,
    /// Kattis's default validation; its flags come with each test
    /// (`output_flags`), as an imported Kattis package keeps them.
    Kattis,
}

/// How a problem's outputs are checked: a built-in checker, or the
/// problem's own program (compiled by the judge, run by [`special`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Checker {
    Builtin(CheckerKind),
    Program {
        /// The source, relative to the package.
        source: std::path::PathBuf,
        protocol: special::Protocol,
    },
}

/// A built-in checker with its options.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum CheckerKind {
    /// Tokens separated by any whitespace, compared exactly (case-sensitive).
    Tokens,
    /// Every byte, whitespace included.
    Exact,
    /// Line by line, ignoring whitespace at the end of each line and empty
    /// lines at the end.
    Lines,
    /// Tokens, ignoring ASCII case.
    CaseInsensitive,
    /// Tokens; where the answer's token is a number, the output's must be a
    /// number within `abs` or within `rel` times the answer (either
    /// suffices; `nan` and infinities are never equal to anything).
    Float { abs: f64, rel: f64 },
    /// Tokens as a multiset: the same tokens in any order.
    Unordered,
    /// Tokens; integers compared by value at any size (`+7`, `007` and `7`
    /// are equal, `-0` is `0`).
    Integers,
    /// Kattis's default output validation with its flags: tokens compared
    /// ignoring ASCII case unless `case_sensitive`, whitespace changes
    /// ignored unless `space_sensitive` (then every whitespace byte must be
    /// the answer's); where floats are on and the answer's token is a
    /// finite number, the output's must be one within `abs` or `rel`
    /// (a negative tolerance is off).
    Kattis {
        case_sensitive: bool,
        space_sensitive: bool,
        abs: f64,
        rel: f64,
    },
}

impl CheckerKind {
    /// The checker a manifest names, with the float tolerances it gives.
    ///
    /// # Errors
    /// Tolerances given to a checker other than `float`, a `float` checker
    /// without any, or a negative or non-finite one.
    pub fn new(
        name: CheckerName,
        abs: Option<f64>,
        rel: Option<f64>,
    ) -> Result<CheckerKind, String> {
        if name != CheckerName::Float {
            if abs.is_some() || rel.is_some() {
                return Err("float_abs and float_rel are options of checker = \"float\"".into());
            }
            return Ok(match name {
                CheckerName::Tokens => CheckerKind::Tokens,
                CheckerName::Exact => CheckerKind::Exact,
                CheckerName::Lines => CheckerKind::Lines,
                CheckerName::CaseInsensitive => CheckerKind::CaseInsensitive,
                CheckerName::Unordered => CheckerKind::Unordered,
                CheckerName::Integers => CheckerKind::Integers,
                CheckerName::Kattis => CheckerKind::Kattis {
                    case_sensitive: false,
                    space_sensitive: false,
                    abs: -1.0,
                    rel: -1.0,
                },
                CheckerName::Float => unreachable!("handled below"),
            });
        }
        if abs.is_none() && rel.is_none() {
            return Err("checker = \"float\" needs float_abs or float_rel".into());
        }
        let (abs, rel) = (abs.unwrap_or(0.0), rel.unwrap_or(0.0));
        if !(abs >= 0.0 && abs.is_finite() && rel >= 0.0 && rel.is_finite()) {
            return Err("float_abs and float_rel must be finite and not negative".into());
        }
        Ok(CheckerKind::Float { abs, rel })
    }

    /// Kattis's default validation with these `validator_flags` (or
    /// `output_validator_flags`): `case_sensitive`, `space_change_sensitive`,
    /// `float_tolerance E`, `float_absolute_tolerance E`,
    /// `float_relative_tolerance E`.
    ///
    /// # Errors
    /// An unknown flag, or a tolerance that is missing or not a number.
    pub fn kattis(flags: &[String]) -> Result<CheckerKind, String> {
        kattis::parse_flags(flags)
    }

    /// Compares `output` with `answer`.
    ///
    /// # Errors
    /// When a stream cannot be read (the judge's failure, not the output's).
    pub fn check(&self, answer: impl BufRead, output: impl BufRead) -> io::Result<CheckResult> {
        match *self {
            CheckerKind::Tokens => tokens::check(answer, output, |a, b| a == b, true),
            CheckerKind::CaseInsensitive => {
                tokens::check(answer, output, |a, b| a.eq_ignore_ascii_case(b), true)
            }
            CheckerKind::Integers => tokens::check(answer, output, tokens::same_integer, true),
            // `nan` is not the same as `nan`: every token is looked at.
            CheckerKind::Float { abs, rel } => {
                tokens::check(answer, output, |a, b| tokens::close(a, b, abs, rel), false)
            }
            CheckerKind::Kattis {
                case_sensitive,
                space_sensitive,
                abs,
                rel,
            } => {
                let same = |a: &[u8], b: &[u8]| kattis::same(a, b, case_sensitive, abs, rel);
                if space_sensitive {
                    kattis::check_spaces(answer, output, same)
                } else {
                    tokens::check(answer, output, same, true)
                }
            }
            CheckerKind::Exact => exact::check(answer, output),
            CheckerKind::Lines => lines::check(answer, output),
            CheckerKind::Unordered => unordered::check(answer, output),
        }
    }

    /// [`CheckerKind::check`] over bytes in memory.
    pub fn check_bytes(&self, answer: &[u8], output: &[u8]) -> CheckResult {
        // Reading from a slice cannot fail.
        self.check(answer, output)
            .unwrap_or_else(|e| CheckResult::wrong(e.to_string()))
    }
}

/// A token or a line for a one-line message: quoted, and cut when long.
fn show(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]);
    if bytes.len() > MAX {
        format!("{text:?}...")
    } else {
        format!("{text:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_needs_a_tolerance_and_only_float_takes_one() {
        assert!(CheckerKind::new(CheckerName::Float, None, None).is_err());
        assert!(CheckerKind::new(CheckerName::Tokens, Some(1e-6), None).is_err());
        assert!(CheckerKind::new(CheckerName::Float, Some(-1.0), None).is_err());
        assert_eq!(
            CheckerKind::new(CheckerName::Float, None, Some(1e-6)),
            Ok(CheckerKind::Float {
                abs: 0.0,
                rel: 1e-6
            })
        );
    }

    /// Each checker against the same pairs: (answer, output, accepted by
    /// tokens, exact, lines, case-insensitive, float 1e-6, unordered, integers).
    #[test]
    fn every_checker_on_one_table() {
        let kinds = [
            CheckerKind::Tokens,
            CheckerKind::Exact,
            CheckerKind::Lines,
            CheckerKind::CaseInsensitive,
            CheckerKind::Float {
                abs: 1e-6,
                rel: 0.0,
            },
            CheckerKind::Unordered,
            CheckerKind::Integers,
        ];
        #[rustfmt::skip]
        let table: &[(&str, &str, [bool; 7])] = &[
            ("Yes\n", "Yes\n",          [true, true, true, true, true, true, true]),
            ("Yes\n", "Yes",            [true, false, true, true, true, true, true]),
            ("Yes\n", "Yes  \n\n",      [true, false, true, true, true, true, true]),
            ("Yes\n", "  Yes\n",        [true, false, false, true, true, true, true]),
            ("1 2\n", "1\n2\n",         [true, false, false, true, true, true, true]),
            ("Yes\n", "yes\n",          [false, false, false, true, false, false, false]),
            ("1 2\n", "2 1\n",          [false, false, false, false, false, true, false]),
            ("1 2\n", "1 2 2\n",        [false, false, false, false, false, false, false]),
            ("7\n", "007\n",            [false, false, false, false, true, false, true]),
            ("0\n", "-0\n",             [false, false, false, false, true, false, true]),
            ("0.5\n", "0.5000001\n",    [false, false, false, false, true, false, false]),
            ("0.5\n", "0.501\n",        [false, false, false, false, false, false, false]),
            ("nan\n", "nan\n",          [true, true, true, true, false, true, true]),
            ("a\r\nb\r\n", "a\nb\n",    [true, false, true, true, true, true, true]),
            ("", "",                    [true, true, true, true, true, true, true]),
            ("", "\n",                  [true, false, true, true, true, true, true]),
        ];
        for (answer, output, want) in table {
            for (kind, want) in kinds.iter().zip(want) {
                let got = kind.check_bytes(answer.as_bytes(), output.as_bytes());
                assert_eq!(
                    got.decision == Decision::Accepted,
                    *want,
                    "{kind:?}: answer {answer:?}, output {output:?}: {}",
                    got.message
                );
            }
        }
    }
}
