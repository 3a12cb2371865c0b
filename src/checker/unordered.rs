//! The unordered checker: the same tokens, each as many times, in any
//! order. It must see every token, so it counts them (by content) rather
//! than streaming.

use std::collections::HashMap;
use std::io::{self, BufRead};

use super::stream::Tokens;
use super::{show, CheckResult};

/// Compares the multisets of tokens of `answer` and `output`.
pub fn check(answer: impl BufRead, output: impl BufRead) -> io::Result<CheckResult> {
    let mut counts: HashMap<Vec<u8>, i64> = HashMap::new();
    let mut want = Tokens::new(answer);
    while let Some(t) = want.next_token()? {
        *counts.entry(t.to_vec()).or_default() += 1;
    }
    let mut got = Tokens::new(output);
    let mut index = 0usize;
    while let Some(t) = got.next_token()? {
        index += 1;
        match counts.get_mut(t) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                return Ok(CheckResult::wrong(format!(
                    "token {index}: {} is not expected (or not that many times)",
                    show(t)
                )))
            }
        }
    }
    let mut missing: Vec<&Vec<u8>> = counts
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(t, _)| t)
        .collect();
    missing.sort();
    match missing.first() {
        None => Ok(CheckResult::accepted()),
        Some(t) => Ok(CheckResult::wrong(format!(
            "{} expected tokens are missing, e.g. {}",
            missing.len(),
            show(t)
        ))),
    }
}
