//! A database URL as it may be shown: in an error, a log line, a `--help`
//! text. Every place that writes a database URL for people to read goes
//! through [`masked_url`], so a password is never printed, wherever the
//! URL holds it.

/// The query parameters that carry a secret (compared without case).
const SECRET_PARAMETERS: &[&str] = &["password", "sslpassword"];

/// What a password is shown as.
const MASK: &str = "***";

/// `url` with every password in it replaced by `***`: the one in the
/// user information (`user:pass@host`, the password taken up to the
/// *last* `@` before the query, so one holding an unencoded `@` is
/// masked whole) and the values of the query parameters `password` and
/// `sslpassword`, in any case. Where the user information cannot be told
/// from the rest (a `?` inside an unencoded password), more is masked
/// rather than less.
pub fn masked_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return masked_query(url);
    };
    let (head, rest) = url.split_at(scheme_end);
    let rest = masked_query(rest);
    // The user information ends at the last `@` before the query; where no
    // `@` comes before the first `?`, the `?` may be a password's own.
    let before_query = rest.find('?').unwrap_or(rest.len());
    let at = rest[..before_query].rfind('@').or_else(|| rest.rfind('@'));
    let Some(at) = at else {
        return format!("{head}{rest}");
    };
    let userinfo = &rest[..at];
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{head}{user}:{MASK}{}", &rest[at..]),
        None => format!("{head}{rest}"),
    }
}

/// `text` with the value of each secret query parameter masked: from the
/// parameter's `=` to the next `&` (or the end).
fn masked_query(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find('=') {
        let eq = from + found;
        // The parameter's name: back to the `?`, `&` or `;` before it.
        let start = lower[..eq].rfind(['?', '&', ';']).map_or(0, |i| i + 1);
        let name = lower[start..eq].trim();
        let end = lower[eq..].find('&').map_or(text.len(), |i| eq + i);
        if SECRET_PARAMETERS.contains(&name) {
            out.push_str(&text[copied..=eq]);
            out.push_str(MASK);
            copied = end;
            from = end;
        } else {
            // Not a secret's: an `=` of a password before the query, or of
            // a value, is passed over without skipping what follows it.
            from = eq + 1;
        }
        if from >= text.len() {
            break;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// A PostgreSQL URL split for the client: the URL without its secret
/// query parameters, the password one of them gave (the last), and the
/// names of the others, which the client has no use for. The client logs
/// the value of a parameter it does not know (`sslpassword`, a password
/// spelled `PASSWORD`), so no secret parameter reaches it. A URL that does
/// not parse is given back whole (the client refuses it without echoing
/// it).
pub(super) fn secret_parameters_apart(url: &str) -> (String, Option<String>, Vec<String>) {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return (url.to_string(), None, Vec::new());
    };
    let mut password = None;
    let mut dropped = Vec::new();
    let mut kept: Vec<(String, String)> = Vec::new();
    for (name, value) in parsed.query_pairs() {
        let lower = name.to_ascii_lowercase();
        if lower == "password" {
            password = Some(value.into_owned());
        } else if SECRET_PARAMETERS.contains(&lower.as_str()) {
            dropped.push(name.into_owned());
        } else {
            kept.push((name.into_owned(), value.into_owned()));
        }
    }
    if password.is_none() && dropped.is_empty() {
        return (url.to_string(), None, Vec::new());
    }
    if kept.is_empty() {
        parsed.set_query(None);
    } else {
        parsed.query_pairs_mut().clear().extend_pairs(kept);
    }
    (parsed.into(), password, dropped)
}

#[cfg(test)]
mod tests {
    use super::{masked_url, secret_parameters_apart};

    #[test]
    fn secret_parameters_never_reach_the_client() {
        let (url, password, dropped) = secret_parameters_apart(
            "postgres://judge@db/grundy?host=/run/pg&PASSWORD=p%40ss&sslpassword=k3y&sslmode=disable",
        );
        assert_eq!(
            url,
            "postgres://judge@db/grundy?host=%2Frun%2Fpg&sslmode=disable"
        );
        assert_eq!(password.as_deref(), Some("p@ss"));
        assert_eq!(dropped, ["sslpassword"]);
        let (url, password, _) = secret_parameters_apart("postgres://judge@db/grundy?password=x");
        assert_eq!(
            (url.as_str(), password.as_deref()),
            ("postgres://judge@db/grundy", Some("x"))
        );
        let plain = "postgres://judge:pw@db/grundy?sslmode=disable";
        assert_eq!(
            secret_parameters_apart(plain),
            (plain.to_string(), None, Vec::new())
        );
    }

    /// Each form a password takes in a database URL, masked, and the rest
    /// of the URL as written.
    #[test]
    fn every_password_in_a_database_url_is_masked() {
        let cases = [
            (
                "postgres://judge:s3cret@db.example/grundy",
                "postgres://judge:***@db.example/grundy",
            ),
            (
                "postgres://judge@db.example/grundy?password=s3cret",
                "postgres://judge@db.example/grundy?password=***",
            ),
            (
                "postgres://judge@db/grundy?sslmode=require&PassWord=s3cret&application_name=g",
                "postgres://judge@db/grundy?sslmode=require&PassWord=***&application_name=g",
            ),
            (
                "postgres://judge@db/grundy?sslpassword=s3cret",
                "postgres://judge@db/grundy?sslpassword=***",
            ),
            (
                "postgresql://judge@db/grundy?SSLPASSWORD=s3cret&password=t0p",
                "postgresql://judge@db/grundy?SSLPASSWORD=***&password=***",
            ),
            // An unencoded `@` in the password: masked to the last `@`.
            (
                "postgres://judge:s3c@ret@db.example/grundy",
                "postgres://judge:***@db.example/grundy",
            ),
            (
                "postgres://judge:a@b@c@db:5432/grundy?host=/run/pg",
                "postgres://judge:***@db:5432/grundy?host=/run/pg",
            ),
            // A `/` or a `?` inside the password.
            (
                "postgres://judge:se/cr@et@db/grundy",
                "postgres://judge:***@db/grundy",
            ),
            (
                "postgres://judge:se?cret@db/grundy",
                "postgres://judge:***@db/grundy",
            ),
            // `@` in a secret parameter's value is the value's.
            (
                "postgres://db/grundy?password=p@ss:w@rd",
                "postgres://db/grundy?password=***",
            ),
            (
                "postgres://judge:pw@db/grundy?password=p@ss",
                "postgres://judge:***@db/grundy?password=***",
            ),
            // An `=` in the password, and the query's password too.
            (
                "postgres://judge:s3=cret@db/grundy?sslmode=a=b&password=t0p",
                "postgres://judge:***@db/grundy?sslmode=a=b&password=***",
            ),
            // No user name, only a password.
            ("postgres://:s3cret@db/grundy", "postgres://:***@db/grundy"),
        ];
        for (url, shown) in cases {
            let masked = masked_url(url);
            assert_eq!(masked, shown, "{url}");
            for secret in [
                "s3cret", "s3c@ret", "t0p", "p@ss", "se/cr", "se?c", "a@b@c", "ret",
            ] {
                assert!(!masked.contains(secret), "{url} shows {secret}: {masked}");
            }
        }
    }

    #[test]
    fn a_url_without_a_password_is_shown_as_written() {
        for url in [
            "postgres://judge@db.example/grundy",
            "postgres://judge@db/grundy?host=/var/run/postgresql&sslmode=disable",
            "postgres://db:5432/grundy",
            "sqlite:///srv/var/grundy.db",
            "sqlite://var/grundy.db?mode=rwc",
            "not a url",
        ] {
            assert_eq!(masked_url(url), url);
        }
    }
}
