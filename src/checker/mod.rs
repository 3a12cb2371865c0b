//! Checkers: compare a program's output with the expected answer. Built-in
//! checkers are pure functions over bytes; they know nothing of processes
//! or the database, and run only when the run itself succeeded.

mod tokens;

use serde::Deserialize;

pub use tokens::check_tokens;

/// What a checker decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    WrongAnswer,
    PresentationError,
}

/// A checker's decision and a one-line explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    pub decision: Decision,
    pub message: String,
}

impl CheckResult {
    pub fn accepted() -> CheckResult {
        CheckResult {
            decision: Decision::Accepted,
            message: String::new(),
        }
    }

    pub fn wrong(message: String) -> CheckResult {
        CheckResult {
            decision: Decision::WrongAnswer,
            message,
        }
    }
}

/// The checkers a problem may name in `problem.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    /// Tokens separated by any whitespace, compared exactly (case-sensitive).
    Tokens,
}

impl CheckerKind {
    /// Runs the checker.
    pub fn check(self, input: &[u8], answer: &[u8], output: &[u8]) -> CheckResult {
        match self {
            CheckerKind::Tokens => check_tokens(input, answer, output),
        }
    }
}
