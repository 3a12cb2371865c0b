//! Shrinking an input on which the solution and the brute force disagree:
//! fewer elements (a token removed, with a count that matched its line's
//! length lowered by one), fewer cases (lines removed, with the first
//! number lowered), then smaller values (0, 1, half, one less), keeping
//! each step that the validator accepts and on which the two still
//! disagree, until none does or the budget of tries is spent.

/// At most this many candidate inputs are tried.
pub const MAX_TRIES: usize = 400;

/// An input as lines of tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Tokens {
    lines: Vec<Vec<String>>,
    final_newline: bool,
}

impl Tokens {
    pub fn parse(bytes: &[u8]) -> Tokens {
        let text = String::from_utf8_lossy(bytes);
        let final_newline = text.ends_with('\n');
        let lines = text
            .lines()
            .map(|l| l.split_ascii_whitespace().map(str::to_string).collect())
            .collect();
        Tokens {
            lines,
            final_newline,
        }
    }

    pub fn render(&self) -> Vec<u8> {
        let mut out = self
            .lines
            .iter()
            .map(|l| l.join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        if self.final_newline {
            out.push('\n');
        }
        out.into_bytes()
    }

    /// The smaller inputs to try next, the biggest steps first.
    pub fn candidates(&self) -> Vec<Tokens> {
        let mut out = Vec::new();
        // Fewer elements: a token removed, a matching count lowered.
        for (li, line) in self.lines.iter().enumerate() {
            for ti in (0..line.len()).rev() {
                let mut fewer = self.clone();
                fewer.lines[li].remove(ti);
                let len = line.len().to_string();
                let lowered = (line.len() - 1).to_string();
                let mut counted = false;
                for (ci, cl) in self.lines.iter().enumerate().take(li + 1).rev() {
                    let upto = if ci == li { 0 } else { cl.len() };
                    if let Some(k) = cl[..upto].iter().rposition(|t| *t == len) {
                        let mut c = fewer.clone();
                        c.lines[ci][k] = lowered.clone();
                        out.push(c);
                        counted = true;
                        break;
                    }
                }
                if !counted {
                    out.push(fewer);
                }
            }
        }
        // Fewer cases: one or two lines removed, the first number lowered.
        for span in [2, 1] {
            for li in 1..self.lines.len() {
                if li + span > self.lines.len() {
                    break;
                }
                let mut c = self.clone();
                c.lines.drain(li..li + span);
                if let Some(first) = c.lines[0].first_mut() {
                    if let Ok(v) = first.parse::<i64>() {
                        if v > 1 {
                            *first = (v - 1).to_string();
                        }
                    }
                }
                out.push(c);
            }
        }
        // Smaller values.
        for (li, line) in self.lines.iter().enumerate() {
            for (ti, tok) in line.iter().enumerate() {
                let Ok(v) = tok.parse::<i64>() else { continue };
                let mut seen = Vec::new();
                for smaller in [0, 1, v / 2, v - 1] {
                    if smaller < v && smaller >= 0 && !seen.contains(&smaller) {
                        seen.push(smaller);
                        let mut c = self.clone();
                        c.lines[li][ti] = smaller.to_string();
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

/// Shrinks `input` while `fails` says a candidate still shows the bug
/// (`Some` with what it found); returns the smallest failing input and
/// its finding.
///
/// # Errors
/// The first error of `fails` (the judge's own).
pub fn shrink<T, E>(
    input: &[u8],
    found: T,
    mut fails: impl FnMut(&[u8]) -> Result<Option<T>, E>,
) -> Result<(Vec<u8>, T), E> {
    let mut best = (Tokens::parse(input), found);
    let mut tries = 0;
    'outer: while tries < MAX_TRIES {
        for c in best.0.candidates() {
            if tries >= MAX_TRIES {
                break 'outer;
            }
            tries += 1;
            if let Some(f) = fails(&c.render())? {
                best = (c, f);
                continue 'outer;
            }
        }
        break;
    }
    Ok((best.0.render(), best.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up bug: the "solution" is wrong whenever the list holds a
    /// value of at least 5 and has at least two elements; valid inputs are
    /// a count then that many values.
    fn bug(input: &[u8]) -> Result<Option<()>, ()> {
        let t = Tokens::parse(input);
        let Some(n) = t
            .lines
            .first()
            .and_then(|l| l.first())
            .and_then(|x| x.parse::<usize>().ok())
        else {
            return Ok(None); // the validator refuses it
        };
        if t.lines.len() != 2 || t.lines[1].len() != n {
            return Ok(None); // the validator refuses it
        }
        let v: Vec<i64> = t.lines[1].iter().map(|x| x.parse().unwrap()).collect();
        Ok((n >= 2 && v.iter().any(|&x| x >= 5)).then_some(()))
    }

    #[test]
    fn shrinks_to_fewer_elements_and_smaller_values() {
        let input = b"6\n9 30 2 41 7 12\n";
        let (small, ()) = shrink(input, (), bug).unwrap();
        assert_eq!(String::from_utf8(small).unwrap(), "2\n0 5\n");
    }

    #[test]
    fn a_count_is_lowered_with_its_line() {
        let t = Tokens::parse(b"3\n1 2 3\n");
        assert!(t.candidates().contains(&Tokens::parse(b"2\n1 2\n")));
    }
}
