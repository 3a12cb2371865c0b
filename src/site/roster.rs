//! Many accounts at once, as the command line (`grundy user import`) and
//! the admin's users page both take them: one account a line, `name` or
//! `name,password` (CSV). A line with no password gets one generated,
//! shown once to the admin who added it. Every line is checked before any
//! account is added, and they are added together or not at all.

use rand::RngExt as _;

/// The shortest password accepted (on the pages and in a roster alike).
pub const MIN_PASSWORD: usize = 8;
/// The length of a generated password.
const GENERATED_LEN: usize = 12;
/// Characters of generated passwords: no 0/O, 1/l/I to misread on paper.
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXYZ234679";

/// One account of a roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub password: String,
    /// The password was generated here (show it once).
    pub generated: bool,
}

/// Whether `name` is a valid account name: 1 to 32 letters, digits, `_`,
/// `.` or `-`.
pub fn valid_name(name: &str) -> bool {
    (1..=crate::bounds::Field::AccountName.max_chars()).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
}

/// The hash of a password nobody knows (random, never shown): an
/// account made for a team that an admin gives a password later.
///
/// # Errors
/// The hasher's failure.
pub fn nobodys_password_hash() -> Result<String, crate::auth::Error> {
    crate::auth::hash_password(&generate_password())
}

/// A new random password.
pub fn generate_password() -> String {
    let mut rng = crate::auth::os_rng();
    (0..GENERATED_LEN)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The accounts of `text`: one a line, `name` or `name,password` (the
/// password is the rest of the line, commas included). Blank lines, lines
/// starting with `#` and a first line `name,password` are skipped.
///
/// # Errors
/// Every wrong line, each as `line N: what is wrong`, one per line.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut out: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let n = i + 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if n == 1 && line.trim().eq_ignore_ascii_case("name,password") {
            continue;
        }
        let (name, password) = match line.split_once(',') {
            Some((name, password)) => (name.trim(), Some(password)),
            None => (line.trim(), None),
        };
        if !valid_name(name) {
            errors.push(format!(
                "line {n}: user name {name:?}: use 1 to 32 letters, digits, '-', '_' and '.'"
            ));
            continue;
        }
        if out.iter().any(|e| e.name == name) {
            errors.push(format!("line {n}: {name} is listed twice"));
            continue;
        }
        let entry = match password.filter(|p| !p.is_empty()) {
            Some(p) if p.chars().count() < MIN_PASSWORD => {
                errors.push(format!(
                    "line {n}: the password of {name} is shorter than {MIN_PASSWORD} characters"
                ));
                continue;
            }
            Some(p) => Entry {
                name: name.to_string(),
                password: p.to_string(),
                generated: false,
            },
            None => Entry {
                name: name.to_string(),
                password: generate_password(),
                generated: true,
            },
        };
        out.push(entry);
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    if out.is_empty() {
        return Err("no accounts listed (one a line: name or name,password)".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_and_without_passwords() {
        let r = parse("name,password\nann,secret-one\n\n# late\nbob\ncid,a,b,c,d,e,f\n").unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(
            (r[0].name.as_str(), r[0].password.as_str()),
            ("ann", "secret-one")
        );
        assert!(!r[0].generated);
        assert!(r[1].generated);
        assert_eq!(r[1].password.len(), GENERATED_LEN);
        assert_eq!(r[2].password, "a,b,c,d,e,f");
    }

    #[test]
    fn every_wrong_line_is_named() {
        let e = parse("ann,short\nb b\nann2,long-enough\nann2\n").unwrap_err();
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 3, "{e}");
        assert!(lines[0].starts_with("line 1:"), "{e}");
        assert!(lines[1].starts_with("line 2:"), "{e}");
        assert!(
            lines[2].starts_with("line 4:") && lines[2].contains("twice"),
            "{e}"
        );
        assert!(parse("\n# nothing\n").is_err());
    }

    #[test]
    fn generated_passwords_differ_and_avoid_look_alikes() {
        let a = generate_password();
        assert_ne!(a, generate_password());
        assert!(!a.contains(['0', 'O', '1', 'l', 'I']));
    }
}
