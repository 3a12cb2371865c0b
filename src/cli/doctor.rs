//! `grundy doctor`: the sandbox tiers in force on this machine, what is
//! missing for better ones, and whether each language's toolchain works
//! inside the box.
//!
//! Exit status: 0 when programs run isolated and the languages this judge
//! keeps work (every one marked `required`, and at least one at all), 1
//! otherwise, with the faults named on stderr. A missing optional
//! toolchain is listed with the tool's own reason, not a failure.

use std::io::Write;

use super::languages::{faults, missing_word, optional_note, probe, report_faults};
use crate::context::Context;
use crate::sandbox::IsolationTier;

pub fn run(ctx: &Context) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let tiers = ctx.tiers();
    writeln!(out, "{}", ctx.tiers_text())?;
    let mut found = Vec::new();
    if let Some(why) = &tiers.refused {
        found.push(format!("the sandbox refuses to run programs ({why})"));
    } else if tiers.isolation == IsolationTier::None {
        found.push("programs do not run isolated".to_string());
    }
    let probed = probe(ctx);
    for p in &probed {
        let status = match &p.version {
            Ok(v) => format!("ok ({v})"),
            Err(why) => format!("{}: {why}", missing_word(p.required)),
        };
        writeln!(out, "language:    {:<8} {status}", p.id)?;
    }
    if let Some(note) = optional_note(&probed) {
        writeln!(out, "{note}")?;
    }
    found.extend(faults(&probed));
    report_faults(&found)
}
