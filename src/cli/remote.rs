//! The command line against a hosted judge (`--server URL`): `submit`
//! and `status` print the same table, `--json` object and exit status as
//! locally, following a submission with the API's long poll; `login`
//! stores a token for a server.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context as _};
use serde::Deserialize;
use serde_json::Value;

use super::report;
use crate::config;
use crate::judge::transcript::Transcript;
use crate::judge::{GroupReport, Report};
use crate::verdict::Verdict;

/// Seconds one long poll holds (the server allows up to 60).
const POLL_SECONDS: u64 = 30;

/// A server and the token to use with it.
pub struct Remote {
    base: String,
    token: String,
    agent: ureq::Agent,
}

/// The API's submission object.
#[derive(Debug, Deserialize)]
struct Submission {
    id: i64,
    problem: String,
    language: String,
    verdict: Option<Verdict>,
    score: Option<u32>,
    time_ms: Option<u64>,
    memory_kib: Option<u64>,
    #[serde(default)]
    compile_output: String,
    #[serde(default)]
    tests: Vec<Test>,
    #[serde(default)]
    groups: Vec<GroupReport>,
    status: Shown,
    #[serde(default)]
    submitted_at: String,
    /// Why a queued submission waits, as the server sees it.
    #[serde(default)]
    waiting: Option<String>,
}

/// A submission's status as the server shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Shown {
    Queued,
    Judging,
    Done,
    /// A contest's freeze hides its result from the caller.
    Frozen,
}

/// A test of the API's submission object: of a secret test a contestant
/// gets no name, time, memory or message.
#[derive(Debug, Deserialize)]
struct Test {
    name: String,
    verdict: Verdict,
    time_ms: Option<u64>,
    memory_kib: Option<u64>,
    #[serde(default)]
    message: String,
    transcript: Option<Transcript>,
}

impl<'a> From<&'a Test> for report::Row<'a> {
    fn from(t: &'a Test) -> report::Row<'a> {
        report::Row {
            name: &t.name,
            verdict: t.verdict,
            time_ms: t.time_ms,
            memory_kib: t.memory_kib,
            message: &t.message,
            transcript: t.transcript.as_ref(),
        }
    }
}

impl Test {
    /// A secret test as a contestant sees it: a verdict, no figures. Such
    /// tests are counted in one line ([`secret_line`]), not given a row of
    /// dashes each.
    fn figureless(&self) -> bool {
        self.time_ms.is_none() && self.memory_kib.is_none()
    }
}

/// The rows of `tests` from index `from` on (the header before the first
/// row of all); the index to go on from.
fn rows(out: &mut dyn Write, tests: &[Test], from: usize) -> std::io::Result<usize> {
    for (i, t) in tests.iter().enumerate().skip(from) {
        if t.figureless() {
            continue;
        }
        if !tests[..i].iter().any(|t| !t.figureless()) {
            report::table_header(out)?;
        }
        report::table_row(out, i, t)?;
    }
    Ok(tests.len().max(from))
}

/// One line for the secret tests shown without figures: how many, and
/// their verdicts in the order they came (nothing when there are none).
fn secret_line(out: &mut dyn Write, tests: &[Test]) -> std::io::Result<()> {
    let mut counts: Vec<(Verdict, usize)> = Vec::new();
    for t in tests.iter().filter(|t| t.figureless()) {
        match counts.iter_mut().find(|(v, _)| *v == t.verdict) {
            Some((_, n)) => *n += 1,
            None => counts.push((t.verdict, 1)),
        }
    }
    if counts.is_empty() {
        return Ok(());
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let each: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{n} {}", v.as_str()))
        .collect();
    writeln!(
        out,
        "{total} secret test{}: {}",
        if total == 1 { "" } else { "s" },
        each.join(", ")
    )
}

impl Submission {
    /// The summary's report (the tests are printed row by row, from
    /// [`Test`]s).
    fn report(&self) -> Option<Report> {
        Some(Report {
            verdict: self.verdict?,
            score: self.score.unwrap_or(0),
            time_ms: self.time_ms.unwrap_or(0),
            memory_kib: self.memory_kib.unwrap_or(0),
            compile_output: self.compile_output.clone(),
            tests: Vec::new(),
            groups: self.groups.clone(),
        })
    }
}

impl Remote {
    /// The server at `url` with the token from `--token`, else
    /// `$GRUNDY_TOKEN`, else the one `grundy login URL` stored.
    ///
    /// # Errors
    /// When there is no token.
    pub fn new(url: &str, token: Option<String>) -> anyhow::Result<Remote> {
        let base = url.trim_end_matches('/').to_string();
        let token = token
            .or_else(config::env_token)
            .or_else(|| config::stored_token(&base))
            .with_context(|| {
                format!("no token for {base}: give --token, set GRUNDY_TOKEN, or run `grundy login {base}`")
            })?;
        Ok(Remote {
            base,
            token,
            agent: agent(),
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }

    fn get(&self, path: &str) -> anyhow::Result<Value> {
        let r = self
            .agent
            .get(&self.url(path))
            .header("Authorization", &format!("Bearer {}", self.token))
            .call();
        self.reply(r)
    }

    fn post(&self, path: &str, body: Value) -> anyhow::Result<Value> {
        let r = self
            .agent
            .post(&self.url(path))
            .header("Authorization", &format!("Bearer {}", self.token))
            .send_json(body);
        self.reply(r)
    }

    /// The reply's JSON, or one line naming the server, the status and the
    /// API's message.
    fn reply(
        &self,
        r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> anyhow::Result<Value> {
        let mut resp =
            r.map_err(|e| anyhow::Error::new(e).context(format!("connecting to {}", self.base)))?;
        let code = resp.status().as_u16();
        let body = resp.body_mut().read_json::<Value>();
        if resp.status().is_success() {
            return body.with_context(|| format!("reading the reply of {}", self.base));
        }
        let body = body.unwrap_or(Value::Null);
        let message = body["error"]["message"].as_str().unwrap_or("no message");
        bail!("{}: {code} {message}", self.base)
    }
}

/// The client: errors as statuses are read as replies (the API's error
/// object says what is wrong), a long poll given room to finish.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(10)))
        .timeout_recv_body(Some(Duration::from_secs(POLL_SECONDS + 30)))
        .timeout_recv_response(Some(Duration::from_secs(POLL_SECONDS + 30)))
        .build()
        .into()
}

/// Where a submission goes: a problem, in a contest or not.
pub struct To<'a> {
    /// A catalog slug, or in a contest a label or a slug.
    pub problem: &'a str,
    /// A contest's slug or id.
    pub contest: Option<&'a str>,
}

/// `grundy submit PROBLEM FILE --server URL [--contest C]`.
pub fn submit(
    remote: &Remote,
    to: To<'_>,
    file: &Path,
    lang: Option<&str>,
    json: bool,
) -> anyhow::Result<u8> {
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| {
            f.take(super::super::server::BODY_LIMIT as u64)
                .read_to_end(&mut bytes)
        })
        .with_context(|| format!("reading {}", file.display()))?;
    let source = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{}: the source is not UTF-8 text", file.display()))?;
    let language = match lang {
        Some(l) => l.to_string(),
        None => language_for(remote, file)?,
    };
    let slug = to.problem;
    let mut body = serde_json::json!({"problem": slug, "language": language, "source": source});
    if let Some(contest) = to.contest {
        body["contest"] = Value::from(contest);
    }
    let created = remote.post("/submissions", body)?;
    let id = created["id"]
        .as_i64()
        .with_context(|| format!("{}: the reply has no submission id", remote.base))?;
    // The problem it was stored for: in a contest, not the label typed.
    let problem = created["problem"].as_str().unwrap_or(slug);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(
            out,
            "submission {id}: {problem} in {language} on {}",
            remote.base
        )?;
    }
    follow(remote, id, json, &mut out)
}

/// The server's language for a file's extension.
fn language_for(remote: &Remote, file: &Path) -> anyhow::Result<String> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let langs = remote.get("/languages")?;
    langs["languages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| {
            l["extensions"]
                .as_array()
                .is_some_and(|es| es.iter().any(|e| e == ext))
        })
        .and_then(|l| l["id"].as_str().map(str::to_string))
        .with_context(|| {
            format!(
                "{}: no language of {} takes .{ext} files; name the language with --lang",
                file.display(),
                remote.base
            )
        })
}

/// Long-polls a submission until it is done, printing each test as it
/// appears, then the summary (or the JSON object); returns the exit status.
fn follow(remote: &Remote, id: i64, json: bool, out: &mut dyn Write) -> anyhow::Result<u8> {
    let mut shown = 0;
    let mut told: Option<String> = None;
    // The first look answers at once, so a submission that waits says why
    // from the start.
    let mut wait = 0;
    loop {
        let value = remote.get(&format!("/submissions/{id}?wait={wait}"))?;
        wait = POLL_SECONDS;
        let sub: Submission = serde_json::from_value(value.clone())
            .with_context(|| format!("{}: an unexpected submission object", remote.base))?;
        if !json {
            shown = rows(out, &sub.tests, shown)?;
        }
        match sub.status {
            Shown::Done => {}
            Shown::Frozen => bail!(
                "{}: submission {id} is hidden by a contest's freeze until the results are revealed",
                remote.base
            ),
            Shown::Queued => {
                // On stderr, once per new reason: stdout stays the report.
                if sub.waiting.is_some() && sub.waiting != told {
                    eprintln!("grundy: waiting: {}", sub.waiting.as_deref().unwrap_or(""));
                    told = sub.waiting.clone();
                }
                continue;
            }
            Shown::Judging => continue,
        }
        let report = sub
            .report()
            .with_context(|| format!("{}: done without a verdict", remote.base))?;
        if json {
            report::print_json(out, &value)?;
        } else {
            secret_line(out, &sub.tests)?;
            report::summary(out, id, &report)?;
        }
        return Ok(report::exit_code(&report));
    }
}

/// `grundy status N --server URL`.
pub fn status(remote: &Remote, id: i64, json: bool) -> anyhow::Result<u8> {
    let value = remote.get(&format!("/submissions/{id}"))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        report::print_json(&mut out, &value)?;
        return Ok(0);
    }
    let sub: Submission = serde_json::from_value(value)
        .with_context(|| format!("{}: an unexpected submission object", remote.base))?;
    writeln!(
        out,
        "submission {}: {} in {}, submitted {}",
        sub.id, sub.problem, sub.language, sub.submitted_at
    )?;
    rows(&mut out, &sub.tests, 0)?;
    match sub.report() {
        Some(r) => {
            secret_line(&mut out, &sub.tests)?;
            report::summary(&mut out, sub.id, &r)?
        }
        None => match sub.status {
            Shown::Frozen => writeln!(
                out,
                "status: frozen (the contest's freeze hides the result until it is revealed)"
            )?,
            Shown::Judging => writeln!(out, "status: judging")?,
            // Why it waits, in the words the server gives this caller.
            _ => match &sub.waiting {
                Some(why) => writeln!(out, "status: queued ({why})")?,
                None => writeln!(out, "status: queued")?,
            },
        },
    }
    Ok(0)
}

/// `grundy login URL`: reads a token (prompted at a terminal, else the
/// first line of standard input), checks it with the server and stores it
/// in the user's configuration directory, readable by the user only.
pub fn login(url: &str) -> anyhow::Result<u8> {
    let base = url.trim_end_matches('/').to_string();
    let token = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("token for {base}: ")).context("reading the token")?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the token from standard input")?;
        line
    };
    let token = token.trim().to_string();
    if token.is_empty() {
        bail!("the token is empty");
    }
    let remote = Remote {
        base: base.clone(),
        token: token.clone(),
        agent: agent(),
    };
    remote.get("/languages").context("checking the token")?;
    let dir = config::user_config_dir()
        .context("no configuration directory: set HOME or XDG_CONFIG_HOME")?;
    let path = dir.join("credentials.toml");
    let mut table: std::collections::BTreeMap<String, String> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| toml::from_str(&t).ok())
        .unwrap_or_default();
    table.insert(base.clone(), token);
    write_private(&dir, &path, &toml::to_string(&table)?)?;
    writeln!(
        std::io::stdout(),
        "logged in to {base}; token stored in {}",
        path.display()
    )?;
    Ok(0)
}

/// Writes a file only its owner can read (mode 0600, in a 0700 directory
/// if it has to be created), replacing it whole.
fn write_private(dir: &Path, path: &Path, text: &str) -> anyhow::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))?;
    let tmp = dir.join(".credentials.toml.tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .with_context(|| format!("writing {}", tmp.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.set_permissions(std::fs::Permissions::from_mode(0o600)))
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &str, verdict: Verdict, figures: bool) -> Test {
        Test {
            name: name.into(),
            verdict,
            time_ms: figures.then_some(3),
            memory_kib: figures.then_some(900),
            message: String::new(),
            transcript: None,
        }
    }

    #[test]
    fn secret_tests_without_figures_are_one_line_not_a_row_each() {
        let mut tests = vec![test("01", Verdict::AC, true)];
        tests.extend((0..60).map(|i| test(&format!("#{}", i + 2), Verdict::AC, false)));
        tests.push(test("#62", Verdict::WA, false));
        let mut out = Vec::new();
        assert_eq!(rows(&mut out, &tests, 0).unwrap(), 62);
        secret_line(&mut out, &tests).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(!text.contains(" - ms"), "{text}");
        assert!(text.ends_with("61 secret tests: 60 AC, 1 WA\n"), "{text}");
        // Streamed in two reads, the header comes once.
        let mut out = Vec::new();
        let next = rows(&mut out, &tests[..1], 0).unwrap();
        rows(&mut out, &tests, next).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
    }
}
