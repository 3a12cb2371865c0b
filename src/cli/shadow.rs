//! `grundy shadow ...`: following a contest another system runs (one
//! `grundy contest import` set up), judging its submissions again here,
//! and listing where the verdicts differ.

use std::io::Write;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Subcommand;

use crate::contest::time::format_reltime;
use crate::context::Context;
use crate::shadow::compare::{Agreement, Compared, Filter};
use crate::shadow::follow::{self, Progress};
use crate::shadow::source::Source;
use crate::site::contests::now_ms;
use crate::store::Store;

#[derive(Debug, Subcommand)]
pub enum ShadowCommand {
    /// Follow the contest's source (live from its event feed, resuming
    /// after a dropped connection or a restart; or a package's feed),
    /// judge every submission here with N workers, and stop once the
    /// source's updates ended and every submission is judged (or on
    /// Ctrl-C; started again, it goes on where it stopped). Ends with the
    /// summary line.
    Follow {
        slug: String,
        /// Read from here instead of where the contest was imported from
        /// (kept for the next time).
        #[arg(long)]
        from: Option<String>,
        /// An API token of the other system (else GRUNDY_SHADOW_TOKEN).
        #[arg(long)]
        token: Option<String>,
        /// Judge workers in this process (0: leave the judging to `grundy
        /// serve` or `grundy worker` on the same database; default as
        /// `grundy serve`).
        #[arg(long)]
        workers: Option<usize>,
    },
    /// List the submissions whose verdicts differ (each side's verdict and
    /// time, the first test that differs where the other system published
    /// runs), the matrix of their verdicts against grundy's, and the
    /// summary line. Exit status 1 while a difference is not checked.
    Diff {
        slug: String,
        /// Every submission, not only those that differ.
        #[arg(long)]
        all: bool,
        /// Only this problem (the other system's id).
        #[arg(long)]
        problem: Option<String>,
        /// Only this team (its id).
        #[arg(long)]
        team: Option<String>,
        /// Only where either side gave this verdict (AC, WA, RTE, ...).
        #[arg(long)]
        verdict: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Mark a difference as checked, with a note (or --undo the mark).
    Check {
        slug: String,
        /// The other system's id of the submission.
        submission: String,
        #[arg(long, required_unless_present = "undo")]
        note: Option<String>,
        #[arg(long, conflicts_with = "note")]
        undo: bool,
    },
}

pub fn run(ctx: &Arc<Context>, command: ShadowCommand, insecure: bool) -> anyhow::Result<u8> {
    match command {
        ShadowCommand::Follow {
            slug,
            from,
            token,
            workers,
        } => follow_contest(ctx, &slug, from, token, workers, insecure),
        ShadowCommand::Diff {
            slug,
            all,
            problem,
            team,
            verdict,
            json,
        } => {
            let rt = super::runtime()?;
            let filter = Filter {
                all,
                problem,
                team,
                verdict,
            };
            rt.block_on(async {
                let store = super::open_store(ctx).await?;
                let result = diff(&store, &slug, &filter, json).await;
                store.close().await;
                result
            })
        }
        ShadowCommand::Check {
            slug,
            submission,
            note,
            undo: _,
        } => {
            let rt = super::runtime()?;
            rt.block_on(async {
                let store = super::open_store(ctx).await?;
                let c = super::contest::find(&store, &slug).await?;
                let found = store
                    .check_shadowed(c.id, &submission, note.as_deref(), now_ms())
                    .await?;
                store.close().await;
                anyhow::ensure!(found, "contest {slug} shadows no submission {submission:?}");
                match note {
                    Some(_) => println!("marked {submission} of {slug} as checked"),
                    None => println!("unmarked {submission} of {slug}"),
                }
                Ok(0)
            })
        }
    }
}

fn follow_contest(
    ctx: &Arc<Context>,
    slug: &str,
    from: Option<String>,
    token: Option<String>,
    workers: Option<usize>,
    insecure: bool,
) -> anyhow::Result<u8> {
    let (workers, rt) = super::serve::prepare(ctx, workers, insecure)?;
    rt.block_on(async {
        let store = super::open_store(ctx).await?;
        let c = super::contest::find(&store, slug).await?;
        let shadow = store.shadow(c.id).await?.with_context(|| {
            format!("contest {slug} was not imported from another system (grundy contest import)")
        })?;
        if let Some(from) = &from {
            store.set_shadow_source(c.id, from).await?;
        }
        let text = from.unwrap_or(shadow.source);
        let token = token.or_else(|| std::env::var("GRUNDY_SHADOW_TOKEN").ok());
        let source =
            tokio::task::spawn_blocking(move || Source::open(&text, token.as_deref())).await??;
        eprintln!(
            "grundy: following {slug} from {} with {}",
            source.describe(),
            crate::plural::count(workers, "worker", "workers")
        );
        let (stop, stopped) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            super::serve::shutdown_signal().await;
            let _ = stop.send(true);
        });
        // Workers of this process, woken by each submission stored.
        let (finish, finished) = tokio::sync::watch::channel(false);
        let pool = crate::worker::Pool {
            store: store.clone(),
            env: crate::worker::WorkerEnv::new(ctx.clone()),
            wake: Arc::new(tokio::sync::Notify::new()),
            stop: finished,
        };
        let judging = crate::worker::start(&pool, workers)
            .await
            .context("starting the workers")?;
        let followed = follow::follow(ctx, &store, &c, source, stopped.clone(), |p| match p {
            Progress::Judging(theirs, ours) => {
                pool.wake.notify_one();
                eprintln!("grundy: judging {theirs} as submission {ours}");
            }
            Progress::NotJudged(theirs, why) => eprintln!("grundy: not judging {theirs}: {why}"),
            Progress::Reconnecting(why) => {
                eprintln!("grundy: the feed ended ({why}); asking again")
            }
        })
        .await;
        // Every submission judged before the summary (unless stopped, or
        // nobody here judges).
        while followed.is_ok() && workers > 0 && !*stopped.borrow() {
            let changed = pool.env.changes.any.notified();
            let rows = store.shadow_rows(c.id).await?;
            let waiting = rows
                .submissions
                .iter()
                .filter(|s| s.submission_id.is_some() && s.status.as_deref() != Some("done"))
                .count();
            if waiting == 0 {
                break;
            }
            let _ = tokio::time::timeout(std::time::Duration::from_millis(500), changed).await;
        }
        finish.send_replace(true);
        crate::worker::join(judging).await;
        let followed = followed?;
        let report = crate::shadow::differences(&store, c.id).await?;
        store.close().await;
        eprintln!(
            "grundy: applied {}; {} stored for judging, {} not judged here{}",
            crate::plural::count(followed.events as usize, "event", "events"),
            followed.judging,
            followed.not_judged,
            if followed.ended {
                "; the source's updates ended"
            } else {
                ""
            }
        );
        if let Some(report) = report {
            println!("{}", report.summary.line());
        }
        Ok(0)
    })
}

async fn diff(store: &Store, slug: &str, filter: &Filter, json: bool) -> anyhow::Result<u8> {
    let c = super::contest::find(store, slug).await?;
    let report = crate::shadow::differences(store, c.id)
        .await?
        .with_context(|| {
            format!("contest {slug} was not imported from another system (grundy contest import)")
        })?;
    let (summary, matrix) = (report.summary, &report.matrix);
    let shown: Vec<&Compared> = report.shown(filter).collect();
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", report.json(slug, filter))?;
    } else {
        let secs =
            |ms: Option<i64>| ms.map_or("-".to_string(), |ms| format!("{:.3}", ms as f64 / 1000.0));
        writeln!(
            out,
            "{:<12} {:<12} {:<8} {:<8} {:<12} {:<6} {:<6} {:>8} {:>8}  {:<12} note",
            "SUBMISSION",
            "TEAM",
            "PROBLEM",
            "LANG",
            "TIME",
            "THEIRS",
            "OURS",
            "THEIR S",
            "OUR S",
            "FIRST TEST"
        )?;
        for x in &shown {
            let first = match (&x.first_difference, &x.first_difference_verdicts) {
                (Some(n), Some((t, o))) => format!("{n} ({t}/{o})"),
                _ => "-".into(),
            };
            let note = match (x.agreement, &x.reason, &x.checked) {
                (_, Some(why), _) => why.clone(),
                (_, _, Some(note)) => format!("checked: {note}"),
                (Agreement::Differ, _, None) => "not checked".into(),
                (a, _, _) => a.as_str().into(),
            };
            writeln!(
                out,
                "{:<12} {:<12} {:<8} {:<8} {:<12} {:<6} {:<6} {:>8} {:>8}  {:<12} {note}",
                x.id,
                x.team,
                x.problem,
                x.language,
                format_reltime(x.contest_time_ms),
                x.theirs.as_deref().unwrap_or("-"),
                x.ours.map_or("-", |v| v.as_str()),
                secs(x.their_time_ms),
                secs(x.our_time_ms),
                first,
            )?;
        }
        if !matrix.is_empty() {
            let ours: std::collections::BTreeSet<&str> =
                matrix.keys().map(|(_, o)| o.as_str()).collect();
            let theirs: std::collections::BTreeSet<&str> =
                matrix.keys().map(|(t, _)| t.as_str()).collect();
            writeln!(
                out,
                "\ntheirs \\ ours {}",
                ours.iter().map(|o| format!("{o:>5}")).collect::<String>()
            )?;
            for t in theirs {
                let cells: String = ours
                    .iter()
                    .map(|o| {
                        let n = matrix
                            .get(&(t.to_string(), o.to_string()))
                            .copied()
                            .unwrap_or(0);
                        format!("{n:>5}")
                    })
                    .collect();
                writeln!(out, "{t:<13} {cells}")?;
            }
        }
        writeln!(out, "\n{}", summary.line())?;
    }
    Ok(if summary.unchecked > 0 { 1 } else { 0 })
}
