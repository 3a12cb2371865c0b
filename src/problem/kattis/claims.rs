//! `submissions/submissions.yaml` (the 2023-07 format's, kept in 2025-09):
//! what each example submission must get, and how it is built.
//!
//! Its top-level keys are glob patterns over the paths under
//! `submissions/` (`*` within one name, `{a,b}` alternatives; a pattern
//! matching a directory matches what is in it). Each maps to `language`
//! (a code of Kattis's language table), `entrypoint` (the file or class
//! that runs), `permitted` and `required` (sets of `AC`, `WA`, `TLE`,
//! `RTE`: every test's verdict in the first, some test's in the second),
//! `message` (a text some test's judge message contains), and keys naming
//! test groups or tests under `data/` (globs too) that hold the same
//! requirements for those tests only. The folders keep their default
//! requirements (`accepted`: every test AC; `wrong_answer`: AC or WA, some
//! WA; ...); a key that is exactly a folder's name replaces what it gives
//! of them, any other adds to them. `score`, `authors`, `model_solution`
//! and `use_for_time_limit` are read and not checked.
//!
//! Like the rest of the problem layer this reads and never runs anything.

use std::path::Path;

use serde_yaml_ng::Value;

use super::meta::{as_text, first_line};

/// A verdict as `submissions.yaml` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Word {
    Ac,
    Wa,
    Tle,
    Rte,
}

impl Word {
    fn parse(s: &str) -> Option<Word> {
        Some(match s {
            "AC" => Word::Ac,
            "WA" => Word::Wa,
            "TLE" => Word::Tle,
            "RTE" => Word::Rte,
            _ => return None,
        })
    }

    /// The word as the format writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Word::Ac => "AC",
            Word::Wa => "WA",
            Word::Tle => "TLE",
            Word::Rte => "RTE",
        }
    }
}

/// One requirement on a submission's test verdicts.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Where it comes from (the key, or the folder's default), for messages.
    pub from: String,
    /// A glob over test paths under `data/` (`secret/group1`, without
    /// `.in`); `None`: every test.
    pub tests: Option<String>,
    /// Every test's verdict is one of these.
    pub permitted: Option<Vec<Word>>,
    /// Some test's verdict is one of these.
    pub required: Option<Vec<Word>>,
    /// Some test's judge message contains this.
    pub message: Option<String>,
}

/// What `submissions.yaml` says of one submission.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Claimed {
    /// Kattis's language code, if given.
    pub language: Option<String>,
    /// The entry point (a file for Python, a class for Java), if given.
    pub entrypoint: Option<String>,
    /// Every requirement, the folder's default first.
    pub rules: Vec<Rule>,
}

const SUBMISSION_KEYS: &[&str] = &[
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// The file, read: its keys in order with their maps.
#[derive(Debug, Clone, Default)]
pub struct Claims {
    entries: Vec<(String, Value)>,
}

impl Claims {
    /// Reads `submissions/submissions.yaml` of the package in `dir`, if it
    /// has one.
    ///
    /// # Errors
    /// The file and what is wrong in it, one line.
    pub fn read(dir: &Path) -> Result<Option<Claims>, (std::path::PathBuf, String)> {
        let path = dir.join("submissions").join("submissions.yaml");
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        let fail = |m: String| (path.clone(), m);
        if text.trim().is_empty() {
            return Ok(Some(Claims::default()));
        }
        let yaml: Value =
            serde_yaml_ng::from_str(&text).map_err(|e| fail(first_line(&e.to_string())))?;
        let Some(map) = yaml.as_mapping() else {
            return Err(fail(
                "not a mapping of submission globs to their requirements".into(),
            ));
        };
        let mut entries = Vec::new();
        for (k, v) in map {
            let key = as_text(k).ok_or_else(|| fail("a key is not a string".into()))?;
            if !matches!(v, Value::Mapping(_) | Value::Null) {
                return Err(fail(format!("{key}: not a mapping")));
            }
            // Check every value now, so a bad file fails at load time.
            rules_of(&key, None, v).map_err(|m| fail(format!("{key}: {m}")))?;
            for (k2, v2) in v.as_mapping().into_iter().flatten() {
                let k2 = as_text(k2).unwrap_or_default();
                match k2.as_str() {
                    "language" | "entrypoint" | "message" if as_text(v2).is_none() => {
                        return Err(fail(format!("{key}.{k2}: not a string")));
                    }
                    _ if SUBMISSION_KEYS.contains(&k2.as_str()) => {}
                    group if matches!(v2, Value::Mapping(_)) => {
                        rules_of(group, Some(group), v2)
                            .map_err(|m| fail(format!("{key}.{group}: {m}")))?;
                    }
                    other => {
                        return Err(fail(format!(
                            "{key}.{other}: neither a key of the format nor a test group's requirements"
                        )))
                    }
                }
            }
            entries.push((key, v.clone()));
        }
        Ok(Some(Claims { entries }))
    }

    /// What holds for the submission at `rel` (its path under
    /// `submissions/`, `/`-separated) in its folder `folder`.
    pub fn for_submission(&self, rel: &str, folder: &str) -> Claimed {
        let mut claimed = Claimed::default();
        let mut default = default_rule(folder);
        let mut rules = Vec::new();
        for (key, value) in &self.entries {
            if !matches_path(key, rel) {
                continue;
            }
            let text = |k: &str| {
                value
                    .as_mapping()
                    .and_then(|m| m.get(Value::String(k.into())))
                    .and_then(as_text)
            };
            if let Some(l) = text("language") {
                claimed.language = Some(l);
            }
            if let Some(e) = text("entrypoint") {
                claimed.entrypoint = Some(e);
            }
            // Checked when read.
            let Ok(mut own) = rules_of(key, None, value) else {
                continue;
            };
            if key == folder {
                // The folder's own key replaces what it gives of the
                // default, and keeps the rest.
                if let (Some(d), Some(o)) = (default.as_mut(), own.first()) {
                    d.from = format!("{key} in submissions.yaml");
                    d.permitted = o.permitted.clone().or(d.permitted.take());
                    d.required = o.required.clone().or(d.required.take());
                    d.message = o.message.clone().or(d.message.take());
                    own.remove(0);
                }
            }
            rules.extend(own);
        }
        claimed.rules = default.into_iter().chain(rules).collect();
        claimed
    }
}

/// The requirements a folder has by default (2023-07's table).
fn default_rule(folder: &str) -> Option<Rule> {
    use Word::*;
    let (permitted, required): (Option<&[Word]>, Option<&[Word]>) = match folder {
        "accepted" => (Some(&[Ac]), None),
        "rejected" => (None, Some(&[Rte, Tle, Wa])),
        "wrong_answer" => (Some(&[Ac, Wa]), Some(&[Wa])),
        "time_limit_exceeded" => (Some(&[Ac, Tle]), Some(&[Tle])),
        "run_time_error" => (Some(&[Ac, Rte]), Some(&[Rte])),
        "brute_force" => (Some(&[Ac, Rte, Tle]), Some(&[Rte, Tle])),
        _ => return None,
    };
    Some(Rule {
        from: format!("{folder}/ by default"),
        tests: None,
        permitted: permitted.map(<[Word]>::to_vec),
        required: required.map(<[Word]>::to_vec),
        message: None,
    })
}

/// The rules of one entry: its own (for every test, or for the tests of
/// `tests`), then those of its test-group keys.
fn rules_of(key: &str, tests: Option<&str>, value: &Value) -> Result<Vec<Rule>, String> {
    let get = |k: &str| {
        value
            .as_mapping()
            .and_then(|m| m.get(Value::String(k.into())))
    };
    let words = |k: &str| -> Result<Option<Vec<Word>>, String> {
        let Some(v) = get(k) else { return Ok(None) };
        let list: Vec<String> = match v {
            Value::Sequence(s) => s.iter().filter_map(as_text).collect(),
            v => as_text(v).into_iter().collect(),
        };
        list.iter()
            .map(|w| {
                Word::parse(w).ok_or_else(|| format!("{k}: {w:?} is not one of AC, WA, TLE, RTE"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    };
    let own = Rule {
        from: match tests {
            None => format!("{key} in submissions.yaml"),
            Some(t) => format!("{key}.{t} in submissions.yaml"),
        },
        tests: tests.map(str::to_string),
        permitted: words("permitted")?,
        required: words("required")?,
        message: get("message").and_then(as_text),
    };
    let mut out = vec![own];
    if tests.is_none() {
        for (k, v) in value.as_mapping().into_iter().flatten() {
            let k = as_text(k).unwrap_or_default();
            if !SUBMISSION_KEYS.contains(&k.as_str()) && matches!(v, Value::Mapping(_)) {
                out.extend(rules_of(key, Some(&k), v)?);
            }
        }
    }
    Ok(out)
}

/// Whether `pattern` matches `path` or one of its parent directories
/// (both `/`-separated and relative).
pub fn matches_path(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    expand_braces(pattern).iter().any(|p| {
        let pats: Vec<&str> = p.trim_end_matches('/').split('/').collect();
        pats.len() <= parts.len() && pats.iter().zip(&parts).all(|(p, n)| matches_name(p, n))
    })
}

/// `{a,b}` alternatives, expanded (nested ones too).
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_string()];
    };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in pattern[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![pattern.to_string()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let alternative = &pattern[w[0] + 1..w[1]];
        out.extend(expand_braces(&format!("{head}{alternative}{tail}")));
    }
    out
}

/// One name against one glob segment: `*` is any run of characters.
fn matches_name(pattern: &str, name: &str) -> bool {
    let Some((first, rest)) = pattern.split_once('*') else {
        return pattern == name;
    };
    let Some(mut left) = name.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = rest.split('*').collect();
    let (last, middle) = pieces.split_last().expect("split gives one piece at least");
    for piece in middle {
        match left.find(piece) {
            Some(i) => left = &left[i + piece.len()..],
            None => return false,
        }
    }
    left.len() >= last.len() && left.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_names_parents_and_alternatives() {
        let table = [
            ("accepted", "accepted/sol.py", true),
            ("accepted/*", "accepted/sol.py", true),
            ("accepted/*.py", "accepted/sol.cpp", false),
            ("*/sol.{py,cpp}", "wrong_answer/sol.cpp", true),
            ("*/sol.{py,cpp}", "wrong_answer/sol.c", false),
            ("secret/*-easy", "secret/03-easy", true),
            ("secret/*-easy", "secret/03-hard", false),
            ("secret", "secret/group1/1", true),
            ("secret/group1", "secret/group10/1", false),
            ("*", "sample/1", true),
            ("a*b*c", "aXbYc", true),
            ("a*b*c", "aXcYb", false),
            ("accepted/x", "accepted", false),
        ];
        for (pattern, path, want) in table {
            assert_eq!(matches_path(pattern, path), want, "{pattern} ~ {path}");
        }
    }

    fn claims(text: &str) -> Result<Option<Claims>, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("submissions")).unwrap();
        std::fs::write(dir.path().join("submissions/submissions.yaml"), text).unwrap();
        Claims::read(dir.path()).map_err(|(_, m)| m)
    }

    #[test]
    fn folder_defaults_are_kept_replaced_or_added_to() {
        let c = claims(
            "time_limit_exceeded:\n  permitted: [AC, WA, TLE]\naccepted/slow.py:\n  language: python3\n  entrypoint: go.py\n  secret/big:\n    permitted: [AC]\n    message: fast enough\n",
        )
        .unwrap()
        .unwrap();
        let tle = c.for_submission("time_limit_exceeded/a.c", "time_limit_exceeded");
        assert_eq!(tle.rules.len(), 1, "{tle:?}");
        assert_eq!(
            tle.rules[0].permitted,
            Some(vec![Word::Ac, Word::Wa, Word::Tle])
        );
        assert_eq!(tle.rules[0].required, Some(vec![Word::Tle]), "kept");
        let slow = c.for_submission("accepted/slow.py", "accepted");
        assert_eq!(slow.language.as_deref(), Some("python3"));
        assert_eq!(slow.entrypoint.as_deref(), Some("go.py"));
        let big = slow.rules.iter().find(|r| r.tests.is_some()).unwrap();
        assert_eq!(big.tests.as_deref(), Some("secret/big"));
        assert_eq!(big.message.as_deref(), Some("fast enough"));
        assert_eq!(slow.rules[0].permitted, Some(vec![Word::Ac]), "default");
        let other = c.for_submission("accepted/other.py", "accepted");
        assert_eq!(other.entrypoint, None);
    }

    #[test]
    fn a_bad_file_is_refused_naming_the_key() {
        for (text, needle) in [
            ("accepted: [1]\n", "accepted: not a mapping"),
            ("accepted:\n  permitted: [OK]\n", "permitted: \"OK\""),
            ("accepted:\n  langauge: 3\n", "accepted.langauge"),
            ("- a\n", "not a mapping"),
        ] {
            let e = claims(text).unwrap_err();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
    }
}
