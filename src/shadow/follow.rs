//! Following another system's event feed: each event applied in order
//! with its token ([`Store::apply_shadow`]), each new submission's files
//! fetched and stored for grundy's workers to judge under the contest's
//! problems and limits, or listed with the reason grundy does not judge
//! it. A feed read from an API is asked again from the last token it
//! gave whenever its connection ends (dropped, or the other system
//! restarted), and a shadow started again goes on after the last event it
//! applied, so no submission is stored for judging twice.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use serde_json::json;

use super::feed::{self, Change, JudgementType};
use super::source::Source;
use crate::contest::Contest;
use crate::context::Context;
use crate::store::shadows::{Shadow, ShadowChange, ShadowJudgement, ShadowRun, ShadowTry};
use crate::store::{NewSubmission, Store};

/// The longest wait before a feed that failed is asked again.
const RETRY_MAX: Duration = Duration::from_secs(30);

/// What a follow did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Followed {
    /// Events applied.
    pub events: u64,
    /// Submissions stored to be judged here.
    pub judging: u64,
    /// Submissions listed as not judged here.
    pub not_judged: u64,
    /// Whether the feed said its updates ended (or the package's feed
    /// was read to its end).
    pub ended: bool,
}

/// What a follow tells as it goes.
#[derive(Debug, Clone)]
pub enum Progress<'a> {
    /// A submission stored for judging: theirs, grundy's.
    Judging(&'a str, i64),
    /// A submission grundy does not judge, and why.
    NotJudged(&'a str, &'a str),
    /// The feed's connection ended; it is asked again after a pause.
    Reconnecting(&'a str),
}

/// Follows contest `c`'s source until its updates end (a package: its
/// feed's last line) or `stop` turns true, applying every event.
///
/// # Errors
/// A line that is no event, a token the source does not know, the
/// store's failures. A connection that fails is tried again.
pub async fn follow(
    ctx: &Arc<Context>,
    store: &Store,
    c: &Contest,
    source: Source,
    mut stop: tokio::sync::watch::Receiver<bool>,
    mut say: impl FnMut(Progress<'_>) + Send,
) -> anyhow::Result<Followed> {
    let shadow = store
        .shadow(c.id)
        .await?
        .with_context(|| format!("contest {} was not imported from another system", c.slug))?;
    let mut types: Vec<JudgementType> = read_types(&shadow.types);
    let teams = store.accounts_by_team_id().await?;
    let mut done = Followed::default();
    let source = Arc::new(source);
    let offline = matches!(*source, Source::Package { .. });
    // The reader runs on a thread of its own (the source blocks); lines
    // come through a bounded channel, so it reads no further ahead.
    let (lines, mut rx) = tokio::sync::mpsc::channel::<Result<String, String>>(64);
    let reader = {
        let source = Arc::clone(&source);
        let since = shadow.token.clone();
        let stop = stop.clone();
        tokio::task::spawn_blocking(move || read_feed(&source, since, offline, &lines, &stop))
    };
    let judge = Judging {
        ctx,
        c,
        shadow: &shadow,
        teams: &teams,
    };
    loop {
        let line = tokio::select! {
            line = rx.recv() => line,
            _ = stop.wait_for(|s| *s) => None,
        };
        let Some(line) = line else { break };
        let line = match line {
            Ok(line) => line,
            Err(why) => {
                say(Progress::Reconnecting(&why));
                continue;
            }
        };
        let Some(event) = feed::parse_line(&line).map_err(|e| {
            anyhow::anyhow!(
                "{}: event after token {:?}: {e}",
                source.describe(),
                shadow.token
            )
        })?
        else {
            continue;
        };
        let token = event.token.as_deref();
        let mut changes = event.changes;
        if changes.is_empty() {
            changes.push(Change::Other);
        }
        for change in &changes {
            match change {
                Change::Types(t) => {
                    for t in t {
                        types.retain(|x| x.id != t.id);
                        types.push(t.clone());
                    }
                    let text = types_json(&types);
                    store
                        .apply_shadow(c.id, &ShadowChange::Types(&text), token)
                        .await?;
                }
                Change::Submission(s) => {
                    if store.shadowed(c.id, &s.id).await? {
                        store
                            .apply_shadow(c.id, &ShadowChange::Nothing, token)
                            .await?;
                        continue;
                    }
                    let files = match judge.refusal(s) {
                        Some(why) => Err(why),
                        None => {
                            let (src, id, refs) =
                                (Arc::clone(&source), s.id.clone(), s.files.clone());
                            tokio::task::spawn_blocking(move || src.files(&id, &refs))
                                .await?
                                .map_err(|e| crate::errors::chain(&*e))
                        }
                    };
                    let prepared = files.and_then(|f| judge.prepared(s, f));
                    let t = ShadowTry {
                        external_id: &s.id,
                        team: &s.team,
                        problem: &s.problem,
                        language: &s.language,
                        contest_time_ms: s.contest_time_ms,
                    };
                    let new = match &prepared {
                        Ok(p) => Ok(NewSubmission {
                            problem: &p.problem,
                            language: &p.language,
                            source: &p.source,
                            user_id: Some(p.user_id),
                        }),
                        Err(why) => Err(why.clone()),
                    };
                    let made = store
                        .apply_shadow(c.id, &ShadowChange::Try(t, new), token)
                        .await?;
                    match (&prepared, made) {
                        (Ok(_), Some(id)) => {
                            done.judging += 1;
                            say(Progress::Judging(&s.id, id));
                        }
                        (Err(why), _) => {
                            done.not_judged += 1;
                            say(Progress::NotJudged(&s.id, why));
                        }
                        _ => {}
                    }
                }
                Change::SubmissionGone(id) => {
                    store
                        .apply_shadow(c.id, &ShadowChange::TryGone(id), token)
                        .await?;
                }
                Change::Judgement(j) => {
                    let j = ShadowJudgement {
                        external_id: &j.id,
                        submission: &j.submission,
                        verdict: j.verdict.as_deref(),
                        current: j.current,
                        max_run_ms: j.max_run_ms,
                    };
                    store
                        .apply_shadow(c.id, &ShadowChange::Judgement(j), token)
                        .await?;
                }
                Change::JudgementGone(id) => {
                    store
                        .apply_shadow(c.id, &ShadowChange::JudgementGone(id), token)
                        .await?;
                }
                Change::Run(r) => {
                    let r = ShadowRun {
                        external_id: &r.id,
                        judgement: &r.judgement,
                        ordinal: r.ordinal,
                        verdict: &r.verdict,
                        time_ms: r.time_ms,
                    };
                    store
                        .apply_shadow(c.id, &ShadowChange::Run(r), token)
                        .await?;
                }
                Change::RunGone(id) => {
                    store
                        .apply_shadow(c.id, &ShadowChange::RunGone(id), token)
                        .await?;
                }
                Change::State {
                    end_of_updates: true,
                } => {
                    store
                        .apply_shadow(c.id, &ShadowChange::Ended, token)
                        .await?;
                    done.ended = true;
                }
                Change::State { .. } | Change::Other => {
                    store
                        .apply_shadow(c.id, &ShadowChange::Nothing, token)
                        .await?;
                }
            }
        }
        done.events += 1;
        if done.ended {
            break;
        }
    }
    drop(rx);
    match reader.await? {
        Ok(read_to_end) => {
            if offline && read_to_end && !*stop.borrow() {
                done.ended = true;
            }
        }
        Err(e) => return Err(e),
    }
    Ok(done)
}

/// Reads the feed into `lines` from `since`: a package once, an API again
/// from its last token whenever a request ends, until `stop`, the
/// receiver gone, or an API's feed that fails in a way no retry mends (a
/// token it does not know). Returns whether a package was read to its end.
fn read_feed(
    source: &Source,
    mut since: Option<String>,
    offline: bool,
    lines: &tokio::sync::mpsc::Sender<Result<String, String>>,
    stop: &tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<bool> {
    let mut pause = Duration::from_secs(1);
    loop {
        let mut gone = false;
        let from = since.clone();
        let read = source.feed(from.as_deref(), |line| {
            if *stop.borrow() {
                return Ok(false);
            }
            if let Some(t) = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| feed::text(&v, "token"))
            {
                since = Some(t);
            }
            gone = lines.blocking_send(Ok(line.to_string())).is_err();
            Ok(!gone)
        });
        if offline {
            return read.map(|stopped| !stopped);
        }
        if gone || *stop.borrow() {
            return Ok(false);
        }
        match read {
            Ok(_) => pause = Duration::from_secs(1),
            Err(e) => {
                let why = crate::errors::chain(&*e);
                if why.contains(" 400 ") {
                    return Err(e);
                }
                if lines.blocking_send(Err(why)).is_err() {
                    return Ok(false);
                }
                // Waits before asking again, waking early for a stop.
                let until = std::time::Instant::now() + pause;
                while std::time::Instant::now() < until && !*stop.borrow() {
                    std::thread::sleep(Duration::from_millis(100));
                }
                pause = (pause * 2).min(RETRY_MAX);
            }
        }
    }
}

/// The other system's judgement types as the store keeps them.
fn types_json(types: &[JudgementType]) -> String {
    let map: serde_json::Map<String, serde_json::Value> = types
        .iter()
        .map(|t| {
            (
                t.id.clone(),
                json!({"name": t.name, "solved": t.solved, "penalty": t.penalty}),
            )
        })
        .collect();
    serde_json::Value::Object(map).to_string()
}

/// The judgement types the store keeps, read back.
pub fn read_types(text: &str) -> Vec<JudgementType> {
    let map: BTreeMap<String, serde_json::Value> = serde_json::from_str(text).unwrap_or_default();
    map.into_iter()
        .map(|(id, v)| JudgementType {
            name: v["name"].as_str().unwrap_or_default().to_string(),
            solved: v["solved"].as_bool().unwrap_or(false),
            penalty: v["penalty"].as_bool().unwrap_or(false),
            id,
        })
        .collect()
}

/// A submission ready to store for judging.
struct Prepared {
    problem: String,
    language: String,
    source: Vec<u8>,
    user_id: i64,
}

/// What decides whether and how grundy judges a submission of the other
/// system.
struct Judging<'a> {
    ctx: &'a Arc<Context>,
    c: &'a Contest,
    shadow: &'a Shadow,
    teams: &'a BTreeMap<String, i64>,
}

impl Judging<'_> {
    /// Why grundy cannot judge `s`, before its files are fetched.
    fn refusal(&self, s: &feed::Submission) -> Option<String> {
        if !self.teams.contains_key(&s.team) {
            return Some(format!("team {} is no team of this contest", s.team));
        }
        if self.problem(&s.problem).is_none() {
            return Some(format!(
                "problem {} is mapped to no problem of the contest",
                s.problem
            ));
        }
        if let Err(why) = self.language(&s.language) {
            return Some(why);
        }
        let end = self.c.duration_s * 1000;
        if !(0..end).contains(&s.contest_time_ms) {
            return Some(format!(
                "made at {} in the contest, outside its {}",
                crate::contest::time::format_reltime(s.contest_time_ms),
                crate::contest::time::format_reltime(end)
            ));
        }
        None
    }

    /// The contest's problem (its catalog slug) of their problem `id`.
    fn problem(&self, id: &str) -> Option<String> {
        let label = self.shadow.problems.get(id)?;
        self.c
            .problems
            .iter()
            .find(|p| p.label == *label)
            .map(|p| p.slug.clone())
    }

    /// grundy's language of their language `id`.
    fn language(&self, id: &str) -> Result<String, String> {
        match self.shadow.languages.get(id) {
            Some(ours) if ours.is_empty() => {
                Err(format!("language {id} is not judged here (mapped to none)"))
            }
            Some(ours) => Ok(ours.clone()),
            None => self
                .ctx
                .languages
                .iter()
                .find(|l| crate::site::clics_language(self.ctx, &l.id) == id)
                .map(|l| l.id.clone())
                .ok_or_else(|| format!("language {id} has no language of grundy")),
        }
    }

    /// `s` with its `files` as a submission to store, or why not: one
    /// source file (or one of the language's extensions among several),
    /// within the judge's size limit.
    fn prepared(
        &self,
        s: &feed::Submission,
        files: super::source::Files,
    ) -> Result<Prepared, String> {
        let language = self.language(&s.language)?;
        let extensions = self
            .ctx
            .languages
            .get(&language)
            .map(|l| l.config.extensions.clone())
            .unwrap_or_default();
        let of_language: Vec<&(String, Vec<u8>)> = files
            .iter()
            .filter(|(name, _)| {
                extensions
                    .iter()
                    .any(|e| name.ends_with(&format!(".{}", e.trim_start_matches('.'))))
            })
            .collect();
        let source = match (&files[..], &of_language[..]) {
            ([], _) => return Err("its files are empty".into()),
            ([(_, one)], _) | (_, [(_, one)]) => one.clone(),
            _ => {
                return Err(format!(
                    "{} files: grundy judges a submission of one source file",
                    files.len()
                ))
            }
        };
        let limit = self.ctx.config.limits.source_limit * 1024;
        if source.is_empty() {
            return Err("its source is empty".into());
        }
        if source.len() as u64 > limit {
            return Err(format!(
                "its source of {} KiB is over the judge's limit of {} KiB",
                source.len().div_ceil(1024),
                limit / 1024
            ));
        }
        Ok(Prepared {
            problem: self.problem(&s.problem).unwrap_or_default(),
            language,
            source,
            user_id: self.teams[&s.team],
        })
    }
}

/// Starts following contest `c` inside a server (an admin's page or the
/// API asked): the server's own workers judge, a stop of the server or of
/// the admin stops it, and what it does is told through the server's
/// followers ([`crate::site::state::Followers`]). `false` while this
/// server follows it already.
pub fn start_in_server(state: &crate::site::AppState, c: Contest, token: Option<String>) -> bool {
    let Some(following) = state.followers.start(c.id) else {
        return false;
    };
    let state = state.clone();
    tokio::spawn(async move {
        let said = following.said;
        let say = move |text: String| *said.lock().unwrap_or_else(|e| e.into_inner()) = text;
        // The admin's stop, or the server's.
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let (mut mine, mut server) = (following.stop, state.stop_signal());
        tokio::spawn(async move {
            tokio::select! {
                _ = mine.wait_for(|s| *s) => {}
                _ = server.wait_for(|s| *s) => {}
            }
            let _ = stop.send(true);
        });
        let result = async {
            let shadow = state.store.shadow(c.id).await?.with_context(|| {
                format!("contest {} was not imported from another system", c.slug)
            })?;
            let text = shadow.source;
            let source = tokio::task::spawn_blocking(move || Source::open(&text, token.as_deref()))
                .await??;
            say(format!("following {}", source.describe()));
            let wake = std::sync::Arc::clone(&state.wake);
            follow(&state.ctx, &state.store, &c, source, stopped, |p| match p {
                Progress::Judging(theirs, ours) => {
                    wake.notify_one();
                    say(format!("stored {theirs} for judging as submission {ours}"));
                }
                Progress::NotJudged(theirs, why) => say(format!("not judging {theirs}: {why}")),
                Progress::Reconnecting(why) => say(format!("the feed ended ({why}); asking again")),
            })
            .await
        }
        .await;
        let last = match result {
            Ok(done) => format!(
                "stopped after {} events{}",
                done.events,
                if done.ended {
                    "; the source's updates ended"
                } else {
                    ""
                }
            ),
            Err(e) => {
                tracing::warn!(contest = %c.slug, error = %crate::errors::chain(&*e), "shadowing stopped");
                format!("failed: {}", crate::errors::chain(&*e))
            }
        };
        say(last);
        state.followers.ended(c.id);
    });
    true
}
