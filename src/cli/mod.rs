//! The command line: argument definitions (clap) and one module per command.
//! Errors are `anyhow` here (the edge), printed by `main` as one line.

mod accounts;
mod contest;
mod db;
mod doctor;
mod export;
mod gen;
mod import;
mod init;
mod languages;
mod problems;
mod remote;
mod report;
mod serve;
mod shadow;
mod status;
mod submit;
mod verify;

use std::path::PathBuf;

use anyhow::{bail, Context as _};
use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::context::Context;
use crate::problem::Problem;

/// grundy: an online judge for combinatorial game theory.
#[derive(Debug, Parser)]
#[command(name = "grundy", version, about)]
pub struct Args {
    /// Configuration file (default: $GRUNDY_CONFIG, else ./config.toml, else
    /// ~/.config/grundy/config.toml, else built-in defaults).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Run untrusted code without isolation (`[sandbox] isolation = "none"`)
    /// for this command: for trusted code on a machine with no sandbox.
    #[arg(long, global = true)]
    pub insecure: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge a source file on a problem and record the verdict.
    ///
    /// Exit status: 0 accepted, 1 judged but not accepted, 2 usage or internal error.
    Submit {
        /// Problem slug, e.g. `nim`.
        problem: String,
        /// Source file; the language follows from its extension unless --lang is given.
        file: PathBuf,
        /// Language id from config.toml (c, cpp, rust, python, java).
        #[arg(long)]
        lang: Option<String>,
        /// Print exactly one JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Submit to a hosted judge (`grundy serve`) at this URL instead.
        #[arg(long)]
        server: Option<String>,
        /// API token for --server (default: $GRUNDY_TOKEN, else the one
        /// `grundy login URL` stored).
        #[arg(long, requires = "server")]
        token: Option<String>,
        /// Submit in this contest of the server (its slug or id); PROBLEM
        /// is then the problem's label (A, B, ...) or its slug.
        #[arg(long, requires = "server")]
        contest: Option<String>,
    },
    /// Show a stored submission and its tests.
    Status {
        /// Submission id.
        id: i64,
        /// Print exactly one JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Ask a hosted judge at this URL instead.
        #[arg(long)]
        server: Option<String>,
        /// API token for --server (as for submit).
        #[arg(long, requires = "server")]
        token: Option<String>,
    },
    /// Store an API token for a hosted judge (read from standard input, or
    /// prompted for), readable by you only, for --server to use.
    Login {
        /// The server's URL, e.g. `http://judge.example:8080`.
        url: String,
    },
    /// Set up a problem set where the configuration looks for one (for an
    /// installed grundy: under ~/.local/share/grundy), copied from DIR or
    /// from the one grundy was built with.
    Init {
        /// A problems folder to copy (default: the one grundy was built with).
        #[arg(long, value_name = "DIR")]
        from: Option<std::path::PathBuf>,
    },
    /// List the problems with their titles and limits.
    Problems {
        /// Print a JSON array on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Show a problem's statement and limits, or with --tests the
    /// provenance of its generated tests.
    Show {
        /// Problem slug.
        problem: String,
        /// Each test's provenance: origin, seed, sizes and hashes (generates
        /// the data first if it is missing).
        #[arg(long)]
        tests: bool,
        /// With --tests: print the recorded index as one JSON object.
        #[arg(long, requires = "tests")]
        json: bool,
    },
    /// Generate test data: inputs, validation and expected answers.
    ///
    /// With --check, regenerate from scratch and compare every input and
    /// answer with the recorded hashes. Exit status: 0 generated (or
    /// identical), 1 some data differs from the record, 2 errors.
    Gen {
        /// Problem slugs.
        problems: Vec<String>,
        /// Every problem.
        #[arg(long, conflicts_with = "problems")]
        all: bool,
        /// Regenerate into a scratch directory and compare with the recorded hashes.
        #[arg(long)]
        check: bool,
    },
    /// List the configured languages with their toolchain versions, or what
    /// is missing with the tool's own reason.
    ///
    /// Exit status: 0 when every language marked `required` works and at
    /// least one does (a missing optional toolchain is listed, not a
    /// failure), 1 otherwise.
    Languages,
    /// Prove problem packages right: valid inputs, brute force agreement,
    /// example submissions' verdicts, time margin, answer balance.
    ///
    /// Exit status: 0 every package verified, 1 some did not, 2 usage or internal error.
    Verify {
        /// Problem slugs or package directories.
        problems: Vec<String>,
        /// Every problem.
        #[arg(long, conflicts_with = "problems")]
        all: bool,
        /// Print exactly one JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Random small inputs per stress plan (overrides problem.toml).
        #[arg(long)]
        stress: Option<u32>,
    },
    /// Host a private judge: the HTTP API under /api/v1 and judge workers,
    /// in one process, until SIGTERM or Ctrl-C (then the submissions being
    /// judged are finished and it exits 0).
    ///
    /// Refuses to start without sandbox isolation unless --insecure.
    Serve {
        /// Address to listen on (default from config.toml, else 127.0.0.1:8080).
        #[arg(long)]
        bind: Option<String>,
        /// Judge workers (default from config.toml, else one per core);
        /// 0 serves without judging (workers elsewhere: `grundy worker`).
        #[arg(long)]
        workers: Option<usize>,
    },
    /// Judge workers only, against the configured database (a server's
    /// PostgreSQL, from any machine, or its SQLite file on the same one),
    /// until SIGTERM or Ctrl-C.
    Worker {
        /// Judge workers (default from config.toml, else one per core).
        #[arg(long)]
        workers: Option<usize>,
    },
    /// Publish problem packages to the database for workers on other
    /// machines (builds each one's tests and records their hashes; `grundy
    /// serve` does it for every problem at start on PostgreSQL).
    Publish {
        /// Problems (slugs) to publish.
        #[arg(required_unless_present = "all")]
        problems: Vec<String>,
        /// Every problem of the catalog.
        #[arg(long, conflicts_with = "problems")]
        all: bool,
    },
    /// Create, list and run contests (on the hosted judge's database).
    Contest {
        #[command(subcommand)]
        command: contest::ContestCommand,
    },
    /// Shadow a contest another system runs: follow its feed, judge every
    /// submission again, and list where the verdicts differ.
    Shadow {
        #[command(subcommand)]
        command: shadow::ShadowCommand,
    },
    /// The judge's database: move it from SQLite to PostgreSQL.
    Db {
        #[command(subcommand)]
        command: db::DbCommand,
    },
    /// Manage the hosted judge's accounts.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Show the sandbox's isolation and measurement tiers in force, what is
    /// missing for better ones, and whether each toolchain works in the box.
    ///
    /// Exit status: 0 when programs run isolated, every language marked
    /// `required` works and at least one does (a missing optional toolchain
    /// is listed with the tool's own reason, not a failure); 1 otherwise,
    /// with the faults on stderr.
    Doctor,
    /// Write a problem package in another judge's format: tests (generated
    /// first if missing), statement, limits, input validator and example
    /// submissions.
    ///
    /// The target must not exist or be an empty directory; nothing is
    /// overwritten. Exit status: 0 written, 2 usage or internal error.
    Export {
        /// Problem slug.
        problem: String,
        /// The package format: kattis (Kattis problemtools and DOMjudge).
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Directory to create the package in.
        #[arg(long)]
        out: PathBuf,
    },
    /// Turn a Kattis problem package (legacy or 2023-07) into a problem
    /// under the problems directory, keeping its tests as files, its
    /// validators and its example submissions.
    ///
    /// A package that fixes no time limit gets the one its accepted
    /// submissions give by Kattis's rule (they are judged first). Nothing
    /// is overwritten. Exit status: 0 imported, 2 usage or internal error.
    Import {
        /// The package directory (holding problem.yaml).
        dir: PathBuf,
        /// The new problem's slug (default: the directory's name as a slug).
        #[arg(long = "as")]
        slug: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add an account; the password is read from standard input when it is
    /// not a terminal, else prompted for.
    Add {
        name: String,
        /// May see every source and test, and rejudge.
        #[arg(long)]
        admin: bool,
    },
    /// List the accounts.
    List,
    /// Disable an account: its tokens stop working at once.
    Disable { name: String },
    /// Enable a disabled account again (its live tokens work again).
    Enable { name: String },
    /// Hide an account's team from the scoreboards, the awards and everyone
    /// but the admins (the Contest API's `hidden`), or show it again with
    /// `--unhide`. Contests whose results are not final record the change.
    Hide {
        name: String,
        /// Show the team again.
        #[arg(long)]
        unhide: bool,
    },
    /// Set a new password (read as for `add`); the account's sessions end.
    Password { name: String },
    /// Add many accounts at once from a CSV file (`-` for standard input):
    /// one a line, `name,password`, or `name` alone to have a password
    /// generated. Every line is checked first; all are added or none.
    /// Prints `name,password` for each generated password (shown once).
    Import { file: std::path::PathBuf },
    /// Set accounts' organizations and groups (the Contest API's
    /// `organizations`, `groups` and teams' `organization_id`/`group_ids`),
    /// teams' ids, `icpc_id`s and `hidden` from the CLICS files
    /// `organizations.json`, `groups.json` and `teams.json`, or from a CSV
    /// sheet with the columns `team`, `team_id`, `icpc_id`, `hidden`,
    /// `organization`, `organization_id`, `organization_icpc_id`,
    /// `formal_name`, `country`, `groups` (`;` between groups). A team id
    /// that a contest's record holds never changes. All is checked first;
    /// all is stored or nothing.
    Affiliations {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Make a new API token for a user and print it on stdout (shown once).
    New { name: String },
    /// List a user's live tokens: the first characters that name each (never
    /// the token) and when it was made.
    List { name: String },
    /// Revoke a token, given whole or by its first characters; with
    /// `--user`, only among that user's tokens; `--user NAME --all` revokes
    /// every live token of the user.
    Revoke {
        /// The token, or its first characters (as `token list` shows them).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        token_or_prefix: Option<String>,
        /// Only this user's tokens.
        #[arg(long, value_name = "NAME")]
        user: Option<String>,
        /// Every live token of `--user`.
        #[arg(long, requires = "user")]
        all: bool,
    },
}

/// The formats `grundy export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The Kattis problem package format, version 2023-07 (problemtools; DOMjudge).
    Kattis,
}

/// Runs a command; returns the exit status.
///
/// # Errors
/// Usage and internal errors, printed by `main` as one line (exit 2).
pub fn run(args: Args) -> anyhow::Result<u8> {
    if let Command::Login { url } = &args.command {
        return remote::login(url);
    }
    let mut config = Config::discover(args.config.as_deref())?;
    if args.insecure {
        config.sandbox.isolation = crate::config::Isolation::None;
    }
    let insecure = args.insecure;
    let ctx = std::sync::Arc::new(Context::new(config));
    let result = match args.command {
        Command::Submit {
            problem,
            file,
            lang,
            json,
            server: None,
            ..
        } => submit::run(&ctx, &problem, &file, lang.as_deref(), json),
        Command::Submit {
            problem,
            file,
            lang,
            json,
            server: Some(url),
            token,
            contest,
        } => remote::Remote::new(&url, token).and_then(|r| {
            let to = remote::To {
                problem: &problem,
                contest: contest.as_deref(),
            };
            remote::submit(&r, to, &file, lang.as_deref(), json)
        }),
        Command::Status {
            id,
            json,
            server: None,
            ..
        } => status::run(&ctx, id, json),
        Command::Status {
            id,
            json,
            server: Some(url),
            token,
        } => remote::Remote::new(&url, token).and_then(|r| remote::status(&r, id, json)),
        Command::Login { .. } => unreachable!("handled before loading the configuration"),
        Command::Init { from } => init::run(&ctx, from.as_deref()),
        Command::Problems { json } => {
            init::need_problem_set(&ctx).and_then(|()| problems::list(&ctx, json))
        }
        Command::Show {
            problem,
            tests: false,
            ..
        } => init::need_problem_set(&ctx).and_then(|()| problems::show(&ctx, &problem)),
        Command::Show { problem, json, .. } => {
            init::need_problem_set(&ctx).and_then(|()| problems::show_tests(&ctx, &problem, json))
        }
        Command::Gen {
            problems,
            all,
            check,
        } => gen::run(&ctx, &problems, all, check),
        Command::Languages => languages::run(&ctx),
        Command::Doctor => doctor::run(&ctx),
        Command::Serve { bind, workers } => serve::run(&ctx, bind, workers, insecure),
        Command::Worker { workers } => serve::worker(&ctx, workers, insecure),
        Command::Publish { problems, all } => serve::publish(&ctx, &problems, all),
        Command::Contest { command } => contest::run(&ctx, command),
        Command::Shadow { command } => shadow::run(&ctx, command, insecure),
        Command::Db { command } => db::run(&ctx, command),
        Command::User { command } => match command {
            UserCommand::Add { name, admin } => accounts::add(&ctx, &name, admin),
            UserCommand::List => accounts::list(&ctx),
            UserCommand::Disable { name } => accounts::disable(&ctx, &name),
            UserCommand::Enable { name } => accounts::enable(&ctx, &name),
            UserCommand::Hide { name, unhide } => accounts::hide(&ctx, &name, !unhide),
            UserCommand::Password { name } => accounts::password(&ctx, &name),
            UserCommand::Import { file } => accounts::import(&ctx, &file),
            UserCommand::Affiliations { files } => accounts::affiliations(&ctx, &files),
        },
        Command::Token { command } => match command {
            TokenCommand::New { name } => accounts::new_token(&ctx, &name),
            TokenCommand::List { name } => accounts::list_tokens(&ctx, &name),
            TokenCommand::Revoke {
                token_or_prefix,
                user,
                all,
            } => match (token_or_prefix, user) {
                (_, Some(user)) if all => accounts::revoke_all(&ctx, &user),
                (Some(t), Some(user)) => accounts::revoke_of(&ctx, &user, &t),
                (Some(t), None) => accounts::revoke(&ctx, &t),
                // clap requires a token or `--user NAME --all`.
                (None, _) => {
                    anyhow::bail!("give a token, its first characters, or --user NAME --all")
                }
            },
        },
        Command::Import { dir, slug } => import::run(&ctx, &dir, slug.as_deref()),
        Command::Export {
            problem,
            format,
            out,
        } => export::run(&ctx, &problem, format, &out),
        Command::Verify {
            problems,
            all,
            json,
            stress,
        } => verify::run(&ctx, &problems, all, json, stress),
    };
    match result {
        Err(e) if is_broken_pipe(&e) => Ok(0),
        other => other,
    }
}

/// A closed stdout (e.g. `grundy problems | head -1`) ends quietly.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let kind = cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| {
                cause
                    .downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// A single-threaded tokio runtime for the database.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// Opens the store, creating the data directory if needed.
async fn open_store(ctx: &Context) -> anyhow::Result<crate::store::Store> {
    let dir = &ctx.config.data_dir;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating data directory {}", dir.display()))?;
    Ok(crate::store::Store::open(&ctx.config.database_url()).await?)
}

/// An error and its causes on one line (each error prints only its own
/// message; the causes come from its chain), with a hint of the command
/// that helps where one does.
pub fn one_line(err: &anyhow::Error) -> String {
    let message = format!("{err:#}");
    let mut line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(hint) = hint(err) {
        line.push_str(&format!(" ({hint})"));
    }
    line
}

/// What to run next about an error, when a command of ours helps.
fn hint(err: &anyhow::Error) -> Option<String> {
    use crate::{data, lang, problem, sandbox};
    err.chain().find_map(|cause| {
        if let Some(e) = cause.downcast_ref::<lang::Error>() {
            return match e {
                lang::Error::Unknown(_) | lang::Error::Missing { .. } => {
                    Some("see `grundy languages`".into())
                }
                lang::Error::Extension(_) => Some("name the language with --lang".into()),
                _ => None,
            };
        }
        if let Some(problem::Error::Unknown { .. }) = cause.downcast_ref::<problem::Error>() {
            return Some("see `grundy problems`".into());
        }
        if let Some(e) = cause.downcast_ref::<data::Error>() {
            return match e {
                data::Error::Corrupt { slug, .. } => {
                    Some(format!("run `grundy gen {slug}` to regenerate it"))
                }
                data::Error::NotRecorded { slug } => Some(format!("run `grundy gen {slug}` first")),
                _ => None,
            };
        }
        if let Some(crate::judge::PlanError::Toolchain { .. }) =
            cause.downcast_ref::<crate::judge::PlanError>()
        {
            return Some("see `grundy doctor`".into());
        }
        if let Some(sandbox::Error::Unavailable(_)) = cause.downcast_ref::<sandbox::Error>() {
            return Some("see `grundy doctor`".into());
        }
        None
    })
}

/// The problems a command names: as given, or every slug of the catalog
/// with `--all`.
fn targets(ctx: &Context, names: &[String], all: bool, verb: &str) -> anyhow::Result<Vec<String>> {
    if all {
        return Ok(ctx.catalog.slugs()?);
    }
    if names.is_empty() {
        bail!("name the problems (or package directories) to {verb}, or give --all");
    }
    Ok(names.to_vec())
}

/// A problem by slug from the catalog, or a package directory (a Kattis
/// package holding `problem.yaml`, a path with a `/`, or a directory
/// holding a `problem.toml`).
fn load_target(ctx: &Context, name: &str) -> anyhow::Result<Problem> {
    Ok(ctx.catalog.open(name)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_is_shown_once_after_its_context() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied");
        let err = crate::lang::Error::Cache {
            path: "/var/programs".into(),
            source: io,
        };
        let err = anyhow::Error::new(err).context("compiling");
        assert_eq!(
            one_line(&err),
            "compiling: program cache at /var/programs: permission denied"
        );
    }

    #[test]
    fn an_unknown_language_names_the_command_that_lists_them() {
        let err = anyhow::Error::new(crate::lang::Error::Unknown("cobol".into()));
        assert_eq!(
            one_line(&err),
            "unknown language \"cobol\" (see `grundy languages`)"
        );
    }
}
