//! `grundy verify [PROBLEM|DIR...|--all] [--json]`: prove packages right.
//! Exit status 0 iff every package verified, 1 if one did not, 2 on
//! usage or internal error.

use std::io::{IsTerminal, Write};

use serde::Serialize;

use crate::context::Context;
use crate::verify::{self, Options, ProblemReport};

#[derive(Serialize)]
struct JsonOut<'a> {
    verified: bool,
    problems: &'a [ProblemReport],
}

pub fn run(
    ctx: &Context,
    targets: &[String],
    all: bool,
    json: bool,
    stress: Option<u32>,
) -> anyhow::Result<u8> {
    let problems = super::targets(ctx, targets, all, "verify")?
        .iter()
        .map(|name| super::load_target(ctx, name))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (data, judge) = (ctx.test_data(), ctx.judge());
    let tty = std::io::stderr().is_terminal() && !json;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut reports = Vec::new();
    for problem in &problems {
        let slug = problem.slug.clone();
        let report = verify::verify(
            &data,
            &judge,
            ctx.config.limits.source_limit,
            problem,
            Options { stress },
            &|step| {
                if tty {
                    eprint!("\r\x1b[K{slug}: {step}...");
                }
            },
        )?;
        if tty {
            eprint!("\r\x1b[K");
        }
        if !json {
            verify::write_human(&mut out, &report)?;
        }
        reports.push(report);
    }
    let verified = reports.iter().all(|r| r.verified);
    if json {
        serde_json::to_writer(
            &mut out,
            &JsonOut {
                verified,
                problems: &reports,
            },
        )?;
        writeln!(out)?;
    } else if reports.len() > 1 {
        let failed: Vec<&str> = reports
            .iter()
            .filter(|r| !r.verified)
            .map(|r| r.problem.as_str())
            .collect();
        if failed.is_empty() {
            match reports.len() {
                1 => writeln!(out, "the problem verified")?,
                n => writeln!(out, "all {n} problems verified")?,
            }
        } else {
            writeln!(out, "NOT verified: {}", failed.join(", "))?;
        }
    }
    Ok(if verified { 0 } else { 1 })
}
