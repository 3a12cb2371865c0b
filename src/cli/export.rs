//! `grundy export PROBLEM --format kattis --out DIR`: write the package in
//! another judge's format (the work is in [`crate::export`]).

use std::io::{IsTerminal, Write};
use std::path::Path;

use super::ExportFormat;
use crate::context::Context;
use crate::export;

pub fn run(ctx: &Context, slug: &str, format: ExportFormat, out_dir: &Path) -> anyhow::Result<u8> {
    let problem = ctx.catalog.load(slug)?;
    let data = ctx.test_data();
    let tty = std::io::stderr().is_terminal();
    let summary = match format {
        ExportFormat::Kattis => export::kattis(&problem, &data, out_dir, &|_| {
            if tty {
                eprint!("\r\x1b[K{slug}: preparing test data...");
            }
        }),
    };
    if tty {
        eprint!("\r\x1b[K");
    }
    let summary = summary?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "{slug}: Kattis problem package written to {}",
        summary.dir.display()
    )?;
    writeln!(
        out,
        "  tests: {} sample, {} secret (data/sample, data/secret)",
        summary.samples, summary.secrets
    )?;
    if !summary.groups.is_empty() {
        let groups: Vec<String> = summary
            .groups
            .iter()
            .map(|(name, points)| format!("{name} {points}"))
            .collect();
        writeln!(
            out,
            "  groups: {} (type: scoring; data/secret/<group>/testdata.yaml: accept_score with grader_flags min)",
            groups.join(", ")
        )?;
    }
    for note in &summary.notes {
        writeln!(out, "  note: {note}")?;
    }
    let per_dir: Vec<String> = summary
        .submissions
        .iter()
        .map(|(dir, n)| format!("{dir} {n}"))
        .collect();
    writeln!(
        out,
        "  submissions: {} ({})",
        summary.submissions.values().sum::<usize>(),
        if per_dir.is_empty() {
            "none".to_string()
        } else {
            per_dir.join(", ")
        }
    )?;
    if summary.memory_limit_exceeded > 0 {
        writeln!(
            out,
            "  {} memory_limit_exceeded submissions are in run_time_error as mle-* (the format has no MLE)",
            summary.memory_limit_exceeded
        )?;
    }
    writeln!(
        out,
        "  limits: {} s and {} MiB in problem.yaml (the time also in .timelimit)",
        problem.manifest.time_limit, problem.manifest.memory_limit
    )?;
    if summary.input_validator {
        writeln!(
            out,
            "  input validator: input_validators/validator.rs (shared modules inlined, exits 42 valid / 43 invalid)"
        )?;
    } else {
        writeln!(
            out,
            "  input validator: none (no validator.rs; Kattis requires one in input_validators/)"
        )?;
    }
    Ok(0)
}
