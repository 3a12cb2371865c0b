//! `grundy contest ...`: creating and running contests on the hosted
//! judge's database, from the server's machine.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Subcommand;
use serde_json::json;

use crate::contest::awards::{Award, AwardEdit};
use crate::contest::scoreboard::scoreboard;
use crate::contest::time::{format_human, format_reltime, format_time};
use crate::contest::{Contest, Phase, Scoring, Viewer};
use crate::context::Context;
use crate::plural::count;
use crate::shadow::import::{self, Mapping};
use crate::site::contest_edit;
use crate::site::contests::{check_settings, now_ms, Settings};
use crate::site::policy::Role;
use crate::store::{AwardChange, Store};

#[derive(Debug, Subcommand)]
pub enum ContestCommand {
    /// Create a contest: --start, --duration and --problems are needed;
    /// the other settings have defaults.
    Create {
        /// Short name for URLs and the CLICS API (letters, digits, '-', '_', '.').
        slug: String,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Change a contest's settings; those not given stay. Before the start
    /// anything changes; while it runs, its name, end (--duration), freeze,
    /// participants and medals; after its end, its medals until the
    /// results are final.
    Edit {
        slug: String,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Change an award's citation, or add an award of your own (with
    /// --teams); --remove undoes either. After the finalize the change is
    /// in the contest's event feed; once the updates ended it is refused.
    Award {
        slug: String,
        /// A generated award (`winner`, `gold-medal`, `first-to-solve-nim`,
        /// `rank-3`, ...; see `grundy contest show`) or your own (`special-spirit`).
        award: String,
        /// The award's citation: "Best team spirit".
        #[arg(long, required_unless_present = "remove")]
        citation: Option<String>,
        /// Your own award's teams, by account name: `ann,bob`.
        #[arg(long, value_delimiter = ',')]
        teams: Option<Vec<String>>,
        /// Undo: a generated award gets its own citation back, your own is gone.
        #[arg(long, conflicts_with_all = ["citation", "teams"])]
        remove: bool,
    },
    /// Delete a contest in which no submission was made.
    Delete { slug: String },
    /// List the contests.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show a contest's settings and its full scoreboard (as admins see it).
    Show {
        slug: String,
        #[arg(long)]
        json: bool,
    },
    /// Freeze the scoreboard now (ahead of its scheduled freeze).
    Freeze { slug: String },
    /// Reveal the frozen results to everyone (after the contest's end).
    Unfreeze { slug: String },
    /// Declare the results final (the Contest API's `finalized`), after
    /// the end, once every try is judged without a judging error and
    /// every question answered.
    Finalize { slug: String },
    /// Withdraw a try that has no result (one no running worker can judge,
    /// or one that ended in a judging error): it then counts for nobody,
    /// the contest's record deletes it, and its team reads the reason.
    Withdraw {
        slug: String,
        /// The submission's id (`grundy contest show` lists those waiting).
        submission: i64,
        /// Why, as its team and the admins read it.
        #[arg(long)]
        reason: String,
    },
    /// Set up a contest from another contest system: its Contest API
    /// (`https://host/api/contests/ID`, credentials as the URL's user and
    /// password, or --token), or a CLICS contest package (a directory or a
    /// ZIP archive). Its times, freeze and penalty; its problems mapped to
    /// the catalog's (by id, then by label, or as --map says); its
    /// organizations, groups and teams with their ids kept (each team an
    /// account named by its id, made where missing); languages by their
    /// CLICS ids. What cannot be mapped is listed, and then nothing is
    /// imported. Follow it with `grundy shadow follow`.
    Import {
        /// A URL, a directory or a ZIP archive.
        source: String,
        /// The contest's name here (default: its id there).
        #[arg(long)]
        slug: Option<String>,
        /// A TOML file mapping what differs: `[problems]` their id or
        /// label = a catalog problem; `[languages]` their id = a grundy
        /// language, or "" for one not judged here.
        #[arg(long, value_name = "FILE")]
        map: Option<std::path::PathBuf>,
        /// An API token of the other system (a bearer token; else
        /// GRUNDY_SHADOW_TOKEN).
        #[arg(long)]
        token: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Write a finished contest as a CLICS contest package (the event feed,
    /// every endpoint's JSON and the submissions' files) for the ICPC
    /// Resolver and other contest tools.
    Export {
        slug: String,
        /// The package's directory (created; must be empty if it exists).
        dir: std::path::PathBuf,
    },
}

pub fn run(ctx: &Arc<Context>, command: ContestCommand) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let result = rt.block_on(dispatch(ctx, &store, command));
    rt.block_on(store.close());
    result
}

async fn dispatch(
    ctx: &Arc<Context>,
    store: &Store,
    command: ContestCommand,
) -> anyhow::Result<u8> {
    let now = now_ms();
    let mut out = std::io::stdout().lock();
    match command {
        ContestCommand::Create { slug, settings } => {
            let settings = settings.over(Settings::new_contest(slug))?;
            for (given, flag) in [
                (&settings.start, "--start"),
                (&settings.duration, "--duration"),
                (&settings.problems, "--problems"),
            ] {
                if given.is_empty() {
                    anyhow::bail!("a new contest needs {flag} (see grundy contest create --help)");
                }
            }
            let new = check_settings(ctx, &settings, now).map_err(anyhow::Error::msg)?;
            store.create_contest(&new, now).await?;
            writeln!(
                out,
                "created contest {} ({}, starts {})",
                new.slug,
                count(new.problems.len(), "problem", "problems"),
                format_human(new.start_ms)
            )?;
        }
        ContestCommand::Edit { slug, settings } => {
            let c = find(store, &slug).await?;
            let was = contest_edit::settings_of(store, &c).await?;
            let settings = match (&settings.colors, &settings.problems) {
                // New problems and no colours: each problem that stays
                // keeps its colour, under whatever label it has now.
                (None, Some(problems)) => {
                    let colors = contest_edit::kept_colors(&c, problems);
                    settings.over(Settings { colors, ..was })?
                }
                _ => settings.over(was)?,
            };
            let new = contest_edit::edit(ctx, store, &c, &settings, now).await?;
            writeln!(
                out,
                "changed contest {} ({}, {} to {})",
                new.slug,
                count(new.problems.len(), "problem", "problems"),
                format_human(new.start_ms),
                format_human(new.start_ms + new.duration_s * 1000)
            )?;
        }
        ContestCommand::Award {
            slug,
            award,
            citation,
            teams,
            remove,
        } => {
            let c = find(store, &slug).await?;
            let change = if remove {
                AwardChange::Remove(award.clone())
            } else {
                let team_ids = match teams {
                    Some(names) => Some(team_ids(store, &c, &names).await?),
                    None => None,
                };
                AwardChange::Set(AwardEdit {
                    id: award.clone(),
                    citation: citation.unwrap_or_default(),
                    team_ids,
                })
            };
            let changed = store.change_contest_award(c.id, &change).await?;
            let what = match (&change, changed) {
                (AwardChange::Set(_), _) => "set",
                (AwardChange::Remove(_), true) => "removed",
                (AwardChange::Remove(_), false) => "had nothing to remove for",
            };
            writeln!(out, "{what} award {award} of {slug}")?;
        }
        ContestCommand::Import {
            source,
            slug,
            map,
            token,
            json,
        } => {
            let map = match &map {
                Some(path) => Mapping::read(path).map_err(anyhow::Error::msg)?,
                None => Mapping::default(),
            };
            let token = token.or_else(|| std::env::var("GRUNDY_SHADOW_TOKEN").ok());
            let (id, plan) = import::import(ctx, store, &source, token, map, slug).await?;
            let c = &plan.contest;
            if json {
                let v = json!({
                    "id": id, "slug": c.slug, "name": c.name,
                    "start_time": format_time(c.start_ms),
                    "problems": c.problems.iter().map(|(l, p)| json!({"label": l, "problem": p})).collect::<Vec<_>>(),
                    "teams": c.participants.as_ref().map_or(0, Vec::len),
                    "accounts_made": plan.new_accounts.len(),
                    "organizations": plan.affiliations.organizations.len(),
                    "groups": plan.affiliations.groups.len(),
                    "languages": plan.languages,
                });
                writeln!(out, "{v}")?;
            } else {
                writeln!(
                    out,
                    "imported contest {} ({}, {}, {} made; starts {})",
                    c.slug,
                    count(c.problems.len(), "problem", "problems"),
                    count(c.participants.as_ref().map_or(0, Vec::len), "team", "teams"),
                    count(plan.new_accounts.len(), "account", "accounts"),
                    format_human(c.start_ms)
                )?;
            }
        }
        ContestCommand::Delete { slug } => {
            let c = find(store, &slug).await?;
            contest_edit::delete(store, &c).await?;
            writeln!(out, "deleted contest {slug}")?;
        }
        ContestCommand::List { json } => {
            let contests = store.contests().await?;
            if json {
                let list: Vec<_> = contests.iter().map(|c| summary(c, now)).collect();
                writeln!(out, "{}", serde_json::Value::Array(list))?;
            } else {
                for c in &contests {
                    writeln!(
                        out,
                        "{:<16} {:<8} {} {:>9} {:<4} {}",
                        c.slug,
                        phase_word(c.phase(now)),
                        format_human(c.start_ms),
                        format_reltime(c.duration_s * 1000),
                        c.scoring,
                        c.name
                    )?;
                }
            }
        }
        ContestCommand::Show { slug, json } => {
            let c = find(store, &slug).await?;
            let teams = store.contest_teams(&c).await?;
            let attempts = store.contest_attempts(c.id).await?;
            let board = scoreboard(&c, &teams, &attempts, Viewer::Admin, now);
            let awards = store
                .contest_awards(c.id, crate::store::Reader::Admin)
                .await?;
            if json {
                let mut value = summary(&c, now);
                value["scoreboard"] = serde_json::to_value(&board)?;
                value["awards"] = awards.iter().map(Award::to_json).collect();
                writeln!(out, "{value}")?;
                return Ok(0);
            }
            writeln!(out, "{} ({}): {}", c.slug, c.scoring, c.name)?;
            writeln!(
                out,
                "{} to {}, {}{}",
                format_human(c.start_ms),
                format_human(c.end_ms()),
                phase_word(c.phase(now)),
                if c.is_frozen(now) { ", frozen" } else { "" }
            )?;
            writeln!(
                out,
                "medals: {} gold, {} silver, {} bronze",
                c.medals.gold, c.medals.silver, c.medals.bronze
            )?;
            // What the finalize and the package wait for, and why.
            let judges = crate::site::waiting::Judges::read(store).await?;
            for t in store.unsettled_tries(c.id).await? {
                let why = match t.status.as_str() {
                    "queued" => judges.reason(&t.problem, &t.language, Role::Admin),
                    _ => t.state().to_string(),
                };
                writeln!(
                    out,
                    "without a result: submission {} ({}, {}): {why}",
                    t.id, t.problem, t.language
                )?;
            }
            for w in store.withdrawn_tries(c.id).await? {
                writeln!(
                    out,
                    "withdrawn: submission {} ({}, {}): {}",
                    w.id, w.problem, w.language, w.reason
                )?;
            }
            for p in &c.problems {
                writeln!(out, "  {} {}", p.label, p.slug)?;
            }
            for row in &board.rows {
                let cells: Vec<String> = row
                    .cells
                    .iter()
                    .map(|cell| match (c.scoring, cell.solved) {
                        (Scoring::Ioi, _) => cell.score.map_or("-".into(), |s| s.to_string()),
                        (Scoring::Icpc, true) => format!("+{}", cell.tries.saturating_sub(1)),
                        (Scoring::Icpc, false) if cell.tries > 0 => format!("-{}", cell.tries),
                        _ => ".".into(),
                    })
                    .collect();
                let total = match c.scoring {
                    Scoring::Icpc => format!("{} {}", row.solved, row.penalty),
                    Scoring::Ioi => row.score.to_string(),
                };
                writeln!(
                    out,
                    "{:>4} {:<16} {:>8}  {}",
                    row.rank,
                    row.team.name,
                    total,
                    cells.join(" ")
                )?;
            }
            let names: BTreeMap<String, &str> = teams
                .iter()
                .map(|t| (t.team_id.clone(), t.name.as_str()))
                .collect();
            writeln!(out, "awards:")?;
            for a in &awards {
                let who: Vec<&str> = a
                    .team_ids
                    .iter()
                    .map(|t| names.get(t).copied().unwrap_or(t.as_str()))
                    .collect();
                writeln!(out, "  {:<24} {} ({})", a.id, a.citation, who.join(", "))?;
            }
        }
        ContestCommand::Freeze { slug } => {
            let c = find(store, &slug).await?;
            store.set_contest_frozen(c.id, Some(now)).await?;
            writeln!(out, "froze the scoreboard of {slug}")?;
        }
        ContestCommand::Unfreeze { slug } => {
            let c = find(store, &slug).await?;
            store.set_contest_thawed(c.id, Some(now)).await?;
            writeln!(out, "revealed the results of {slug}")?;
        }
        ContestCommand::Finalize { slug } => {
            let c = find(store, &slug).await?;
            let at = store.finalize_contest(c.id).await?;
            writeln!(
                out,
                "finalized the results of {slug} at {}",
                format_time(at)
            )?;
        }
        ContestCommand::Withdraw {
            slug,
            submission,
            reason,
        } => {
            let c = find(store, &slug).await?;
            store.withdraw_try(c.id, submission, &reason).await?;
            writeln!(
                out,
                "withdrew submission {submission} from {slug}: it counts for nobody"
            )?;
        }
        ContestCommand::Export { slug, dir } => {
            let c = find(store, &slug).await?;
            let state = crate::site::AppState::new(ctx.clone(), store.clone());
            let package = crate::server::contest_package::build(&state, &c, now).await?;
            write_package(&dir, &package.files)?;
            for warning in &package.warnings {
                eprintln!("grundy: warning: {warning}");
            }
            writeln!(
                out,
                "exported {slug} to {} ({}, final at {})",
                dir.display(),
                count(package.files.len(), "file", "files"),
                format_time(package.finalized_ms)
            )?;
        }
    }
    Ok(0)
}

/// Writes `files` under `dir`, which is created, or must be empty: a
/// package never mixes with an older one's files.
fn write_package(dir: &std::path::Path, files: &[(String, Vec<u8>)]) -> anyhow::Result<()> {
    if dir.exists() {
        let mut entries =
            std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
        if entries.next().is_some() {
            anyhow::bail!(
                "{} is not empty: export into a new directory",
                dir.display()
            );
        }
    }
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The ids of the teams of `c` named `names`, as the API writes them.
async fn team_ids(store: &Store, c: &Contest, names: &[String]) -> anyhow::Result<Vec<String>> {
    let teams = store.contest_teams(c).await?;
    names
        .iter()
        .map(|name| {
            teams
                .iter()
                .find(|t| t.name == *name)
                .map(|t| t.team_id.clone())
                .with_context(|| format!("no team {name:?} in contest {}", c.slug))
        })
        .collect()
}

pub(super) async fn find(store: &Store, slug: &str) -> anyhow::Result<Contest> {
    store
        .contest(slug)
        .await?
        .with_context(|| format!("no contest {slug:?} (see grundy contest list)"))
}

fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Before => "upcoming",
        Phase::Running => "running",
        Phase::Ended => "ended",
    }
}

fn summary(c: &Contest, now: i64) -> serde_json::Value {
    json!({
        "slug": c.slug, "name": c.name, "start": format_time(c.start_ms),
        "end": format_time(c.end_ms()), "duration_s": c.duration_s, "freeze_s": c.freeze_s,
        "penalty_min": c.penalty_min, "scoring": c.scoring, "open_to_all": c.open_to_all,
        "medals": {"gold": c.medals.gold, "silver": c.medals.silver, "bronze": c.medals.bronze},
        "phase": phase_word(c.phase(now)), "frozen": c.is_frozen(now),
        "problems": c.problems.iter().map(|p| json!({"label": p.label, "problem": p.slug}))
            .collect::<Vec<_>>(),
    })
}

/// The `--colors` argument as the settings take it: as written, or read
/// from `@FILE` ([`crate::contest::affiliation::read_colors`]).
/// A contest's settings on the command line, for `create` and `edit`
/// alike: each one given replaces the contest's (a new contest's
/// defaults, or what it has now).
#[derive(Debug, clap::Args)]
pub struct SettingsArgs {
    /// The contest's full name (new contest: the slug).
    #[arg(long)]
    name: Option<String>,
    /// Start, UTC unless a zone is given: `2026-12-01T10:00`, `now`, or `+10m`.
    #[arg(long)]
    start: Option<String>,
    /// Length from the start: `5h`, `90m`, `2:30` (a running contest ends
    /// later or sooner).
    #[arg(long)]
    duration: Option<String>,
    /// All the problems in order, labelled A, B, ...: `nim,kayles` (or
    /// `X=nim` for own labels).
    #[arg(long)]
    problems: Option<String>,
    /// Only these accounts take part, comma-separated; `''` (a new
    /// contest's default) for every signed-in user.
    #[arg(long)]
    participants: Option<String>,
    /// `icpc` (a new contest's default) or `ioi`.
    #[arg(long)]
    scoring: Option<String>,
    /// The scoreboard freezes this long before the end (`1h`); `''` (a new
    /// contest's default) for no freeze.
    #[arg(long)]
    freeze: Option<String>,
    /// Penalty minutes per rejected try on a solved problem (ICPC; a new
    /// contest's default 20).
    #[arg(long)]
    penalty: Option<i64>,
    /// Balloon colours: `A=#ff0000,B=#00c000`, or `@FILE` to read them
    /// from a CLICS problems.json, a problemset.yaml or a CSV sheet
    /// (`problem,rgb`); `''` (a new contest's default) for each
    /// problem.toml's `rgb`. They change after the end too, until the end
    /// of updates.
    #[arg(long)]
    colors: Option<String>,
    /// Gold, silver and bronze medals, by rank: `4,4,4` (the default).
    #[arg(long)]
    medals: Option<String>,
}

impl SettingsArgs {
    /// `was` with every setting given here replaced.
    fn over(self, was: Settings) -> anyhow::Result<Settings> {
        Ok(Settings {
            name: self.name.unwrap_or(was.name),
            start: self.start.unwrap_or(was.start),
            duration: self.duration.unwrap_or(was.duration),
            problems: self.problems.unwrap_or(was.problems),
            participants: self.participants.unwrap_or(was.participants),
            scoring: self.scoring.unwrap_or(was.scoring),
            freeze: self.freeze.unwrap_or(was.freeze),
            penalty: self.penalty.map_or(was.penalty, |p| p.to_string()),
            colors: match self.colors {
                Some(colors) => colors_arg(&colors)?,
                None => was.colors,
            },
            medals: self.medals.unwrap_or(was.medals),
            slug: was.slug,
        })
    }
}

fn colors_arg(arg: &str) -> anyhow::Result<String> {
    let Some(path) = arg.strip_prefix('@') else {
        return Ok(arg.to_string());
    };
    let body =
        std::fs::read_to_string(path).with_context(|| format!("reading the colours in {path}"))?;
    let colors =
        crate::contest::affiliation::read_colors(path, &body).map_err(anyhow::Error::msg)?;
    Ok(colors
        .iter()
        .map(|(problem, rgb)| format!("{problem}={rgb}"))
        .collect::<Vec<_>>()
        .join(","))
}
