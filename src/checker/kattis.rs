//! Kattis's default output validation, as problemtools' default validator
//! does it: token by token, ASCII case ignored unless `case_sensitive`,
//! whitespace changes ignored unless `space_change_sensitive`; with a float
//! tolerance, an answer token that is a finite number accepts any finite
//! number within the absolute or the relative tolerance (each off unless
//! given; `float_tolerance` gives both).

use std::io::{self, BufRead};

use super::stream::is_space;
use super::{show, CheckResult, CheckerKind};

/// The built-in checker for a list of Kattis validator flags.
pub fn parse_flags(flags: &[String]) -> Result<CheckerKind, String> {
    let (mut case_sensitive, mut space_sensitive) = (false, false);
    let (mut abs, mut rel) = (-1.0f64, -1.0f64);
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| -> Result<f64, String> {
            let v = it
                .next()
                .ok_or_else(|| format!("{name} needs a number after it"))?;
            finite(v.as_bytes())
                .filter(|x| *x >= 0.0)
                .ok_or_else(|| format!("{name} {v}: not a non-negative number"))
        };
        match flag.as_str() {
            "case_sensitive" => case_sensitive = true,
            "space_change_sensitive" => space_sensitive = true,
            "float_absolute_tolerance" => abs = value(flag)?,
            "float_relative_tolerance" => rel = value(flag)?,
            "float_tolerance" => {
                abs = value(flag)?;
                rel = abs;
            }
            other => {
                return Err(format!(
                    "unknown flag {other:?} of Kattis's default validation"
                ))
            }
        }
    }
    Ok(CheckerKind::Kattis {
        case_sensitive,
        space_sensitive,
        abs,
        rel,
    })
}

/// A token as a finite number, the way C's `%lf` reads a whole token.
fn finite(token: &[u8]) -> Option<f64> {
    let x: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    x.is_finite().then_some(x)
}

/// Whether an output token `got` matches the answer's token `want`.
pub fn same(want: &[u8], got: &[u8], case_sensitive: bool, abs: f64, rel: f64) -> bool {
    if abs >= 0.0 || rel >= 0.0 {
        if let Some(w) = finite(want) {
            let Some(g) = finite(got) else {
                return false;
            };
            let diff = (w - g).abs();
            return (abs >= 0.0 && diff <= abs) || (rel >= 0.0 && diff <= rel * w.abs());
        }
    }
    if case_sensitive {
        want == got
    } else {
        want.eq_ignore_ascii_case(got)
    }
}

/// Runs of whitespace and tokens, alternately, starting with whitespace
/// (possibly empty).
fn runs(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut space = true;
    for (i, &b) in bytes.iter().enumerate() {
        if is_space(b) != space {
            out.push(&bytes[start..i]);
            start = i;
            space = !space;
        }
    }
    out.push(&bytes[start..]);
    out
}

/// With `space_change_sensitive`: every whitespace byte as in the answer,
/// tokens compared by `same`. Holds both in memory (outputs are bounded by
/// the output limit).
pub fn check_spaces(
    mut answer: impl BufRead,
    mut output: impl BufRead,
    same: impl Fn(&[u8], &[u8]) -> bool,
) -> io::Result<CheckResult> {
    let (mut a, mut o) = (Vec::new(), Vec::new());
    answer.read_to_end(&mut a)?;
    output.read_to_end(&mut o)?;
    let (ra, ro) = (runs(&a), runs(&o));
    for (i, (w, g)) in ra.iter().zip(&ro).enumerate() {
        let token = i / 2 + 1;
        if i % 2 == 0 && w != g {
            return Ok(CheckResult::wrong(format!(
                "whitespace before token {token}: expected {}, found {}",
                show(w),
                show(g)
            )));
        }
        if i % 2 == 1 && !same(w, g) {
            return Ok(CheckResult::wrong(format!(
                "token {token}: expected {}, found {}",
                show(w),
                show(g)
            )));
        }
    }
    if ra.len() != ro.len() {
        let token = ra.len().min(ro.len()) / 2 + 1;
        let message = if ra.len() > ro.len() {
            format!(
                "token {token}: expected {}, found end of output",
                show(ra[ro.len()])
            )
        } else {
            format!(
                "token {token}: expected end of output, found {}",
                show(ro[ra.len()])
            )
        };
        return Ok(CheckResult::wrong(message));
    }
    Ok(CheckResult::accepted())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Decision;

    fn flags(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn accepts(flags_: &str, answer: &str, output: &str) -> bool {
        let kind = parse_flags(&flags(flags_)).unwrap();
        kind.check_bytes(answer.as_bytes(), output.as_bytes())
            .decision
            == Decision::Accepted
    }

    /// (flags, answer, output, accepted), after problemtools' own
    /// default-validator cases.
    #[test]
    fn default_validation_table() {
        #[rustfmt::skip]
        let table = [
            ("", "Yes\n", "yes\n", true),
            ("", "Yes\n", "  YES  \n\n", true),
            ("case_sensitive", "Yes\n", "yes\n", false),
            ("case_sensitive", "Yes\n", "Yes", true),
            ("", "1 2\n", "1\n2\n", true),
            ("space_change_sensitive", "1 2\n", "1\n2\n", false),
            ("space_change_sensitive", "1 2\n", "1  2\n", false),
            ("space_change_sensitive", "1 2\n", "1 2", false),
            ("space_change_sensitive", "1 2\n", "1 2\n\n", false),
            ("space_change_sensitive", "a b\n", "A b\n", true),
            ("space_change_sensitive case_sensitive", "a b\n", "A b\n", false),
            ("", "0.5\n", "0.5000001\n", false),
            ("float_tolerance 1e-6", "0.5\n", "0.5000001\n", true),
            ("float_tolerance 1e-6", "0.5\n", "0.501\n", false),
            ("float_absolute_tolerance 0.01", "100\n", "100.009\n", true),
            ("float_absolute_tolerance 0.01", "100\n", "100.02\n", false),
            ("float_relative_tolerance 0.01", "100\n", "100.9\n", true),
            ("float_relative_tolerance 0.01", "100\n", "101.5\n", false),
            ("float_tolerance 1e-6", "2.5\n", "abc\n", false),
            ("float_tolerance 1e-6", "1.0\n", "inf\n", false),
            ("float_tolerance 1e-6", "inf\n", "inf\n", true),
            ("float_tolerance 1e-6", "inf\n", "INF\n", true),
            ("float_tolerance 1e-6", "Yes 1\n", "yes 1.0000001\n", true),
            ("float_tolerance 1e-6", "1\n", "1 2\n", false),
            ("float_tolerance 1e-6", "1 2\n", "1\n", false),
            ("", "", "", true),
            ("", "x\n", "", false),
        ];
        for (f, answer, output, want) in table {
            assert_eq!(
                accepts(f, answer, output),
                want,
                "{f:?}: {answer:?} vs {output:?}"
            );
        }
    }

    #[test]
    fn bad_flags_are_refused_with_the_flag() {
        for (f, word) in [
            ("float_tolerance", "float_tolerance"),
            ("float_tolerance x", "float_tolerance x"),
            ("ignore_case", "ignore_case"),
        ] {
            let e = parse_flags(&flags(f)).unwrap_err();
            assert!(e.contains(word), "{f}: {e}");
        }
    }
}
