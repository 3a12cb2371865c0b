//! Rendering a judged submission: the human table and the `--json` object
//! (its shape is DESIGN.md's contract).

use std::io::Write;

use serde::Serialize;

use crate::judge::{Report, TestReport};
use crate::verdict::Verdict;

/// The `--json` object of `submit` and `status`.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub id: i64,
    pub problem: &'a str,
    pub language: &'a str,
    pub verdict: Option<Verdict>,
    pub score: Option<u32>,
    pub time_ms: Option<u64>,
    pub memory_kib: Option<u64>,
    pub compile_output: &'a str,
    pub tests: &'a [TestReport],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::store::Status>,
}

impl<'a> JsonReport<'a> {
    pub fn new(id: i64, problem: &'a str, language: &'a str, report: Option<&'a Report>) -> Self {
        JsonReport {
            id,
            problem,
            language,
            verdict: report.map(|r| r.verdict),
            score: report.map(|r| r.score),
            time_ms: report.map(|r| r.time_ms),
            memory_kib: report.map(|r| r.memory_kib),
            compile_output: report.map(|r| r.compile_output.as_str()).unwrap_or(""),
            tests: report.map(|r| r.tests.as_slice()).unwrap_or(&[]),
            status: None,
        }
    }
}

/// Prints the JSON object and a newline.
pub fn print_json(out: &mut dyn Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

pub fn table_header(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<28} {:<7} {:>8} {:>11}  message",
        "#", "test", "verdict", "time", "memory"
    )
}

pub fn table_row(out: &mut dyn Write, index: usize, t: &TestReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<28} {:<7} {:>5} ms {:>7} KiB  {}",
        index + 1,
        t.name,
        t.verdict.as_str(),
        t.time_ms,
        t.memory_kib,
        t.message
    )
}

pub fn summary(out: &mut dyn Write, id: i64, report: &Report) -> std::io::Result<()> {
    if report.verdict == Verdict::CE {
        writeln!(out, "compilation failed:")?;
        for line in report.compile_output.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    writeln!(
        out,
        "submission {id}: {} ({}), score {}, max time {} ms, max memory {} KiB",
        report.verdict,
        report.verdict.describe(),
        report.score,
        report.time_ms,
        report.memory_kib
    )
}

/// The exit status for a judged report.
pub fn exit_code(report: &Report) -> u8 {
    match report.verdict {
        Verdict::AC => 0,
        Verdict::IE => 2,
        _ => 1,
    }
}
