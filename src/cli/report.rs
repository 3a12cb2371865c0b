//! Rendering a judged submission: the human table and the `--json` object
//! (its shape is DESIGN.md's contract).

use std::io::Write;

use serde::Serialize;

use crate::judge::transcript::{Side, Transcript};
use crate::judge::{GroupReport, Report, TestReport};
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
    /// Per-group results (empty for a problem without `[[groups]]`).
    pub groups: &'a [GroupReport],
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
            groups: report.map(|r| r.groups.as_slice()).unwrap_or(&[]),
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

/// One test's row: a judged test as the judge reported it, or as a
/// server showed it (a secret test's time and memory are not shown to
/// a contestant: `None`, printed as `-`).
pub struct Row<'a> {
    pub name: &'a str,
    pub verdict: Verdict,
    pub time_ms: Option<u64>,
    pub memory_kib: Option<u64>,
    pub message: &'a str,
    pub transcript: Option<&'a Transcript>,
}

impl<'a> From<&'a TestReport> for Row<'a> {
    fn from(t: &'a TestReport) -> Row<'a> {
        Row {
            name: &t.name,
            verdict: t.verdict,
            time_ms: Some(t.time_ms),
            memory_kib: Some(t.memory_kib),
            message: &t.message,
            transcript: t.transcript.as_ref(),
        }
    }
}

pub fn table_row<'a>(
    out: &mut dyn Write,
    index: usize,
    t: impl Into<Row<'a>>,
) -> std::io::Result<()> {
    let t = t.into();
    let or_dash = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    writeln!(
        out,
        "{:>4}  {:<28} {:<7} {:>5} ms {:>7} KiB  {}",
        index + 1,
        t.name,
        t.verdict.as_str(),
        or_dash(t.time_ms),
        or_dash(t.memory_kib),
        t.message
    )?;
    transcript(out, t.name, t.transcript)
}

/// The tests' table of a stored report, as it was printed while judging
/// (nothing when no test ran).
pub fn table(out: &mut dyn Write, report: &Report) -> std::io::Result<()> {
    if report.tests.is_empty() {
        return Ok(());
    }
    table_header(out)?;
    for (i, t) in report.tests.iter().enumerate() {
        table_row(out, i, t)?;
    }
    Ok(())
}

/// A sample's transcript (interactive problems) under its row: `>` what the submission wrote,
/// `<` what the interactor wrote.
fn transcript(out: &mut dyn Write, name: &str, tr: Option<&Transcript>) -> std::io::Result<()> {
    let Some(tr) = tr else {
        return Ok(());
    };
    writeln!(
        out,
        "        transcript of {name} (> program, < interactor):"
    )?;
    for part in &tr.parts {
        let mark = match part.from {
            Side::Submission => '>',
            Side::Interactor => '<',
        };
        for line in part.text.lines() {
            writeln!(out, "        {mark} {line}")?;
        }
    }
    if tr.truncated {
        writeln!(
            out,
            "        ... (cut: the transcript is longer than the judge keeps)"
        )?;
    }
    Ok(())
}

/// The groups' table of a problem with `[[groups]]` (nothing without).
/// A skipped group names the tests that were not run.
fn groups(out: &mut dyn Write, groups: &[GroupReport]) -> std::io::Result<()> {
    if groups.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{:<20} {:>6} {:>6}  verdict",
        "group", "score", "points"
    )?;
    for g in groups {
        let verdict = match (g.skipped, g.verdict) {
            (true, _) => format!(
                "skipped (a group it depends on is not full): {}",
                g.tests.join(", ")
            ),
            (false, Some(v)) => v.as_str().to_string(),
            (false, None) => "-".into(),
        };
        writeln!(
            out,
            "{:<20} {:>6} {:>6}  {verdict}",
            g.name.as_str(),
            g.score,
            g.points
        )?;
    }
    Ok(())
}

/// The groups' table (for a problem with `[[groups]]`), then one line.
pub fn summary(out: &mut dyn Write, id: i64, report: &Report) -> std::io::Result<()> {
    groups(out, &report.groups)?;
    if report.verdict == Verdict::CE {
        writeln!(out, "compilation failed:")?;
        for line in report.compile_output.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    // A time limit the wall clock ended shows a CPU time under the limit:
    // said so, lest the figure read as a contradiction.
    let walled = report.verdict == Verdict::TLE
        && report
            .tests
            .iter()
            .any(|t| t.verdict == Verdict::TLE && t.message == crate::judge::WALL_CLOCK);
    let time = if walled {
        format!(
            "max CPU time {} ms (the wall clock stopped it: it waited or slept)",
            report.time_ms
        )
    } else {
        format!("max time {} ms", report.time_ms)
    };
    writeln!(
        out,
        "submission {id}: {} ({}), score {}, {time}, max memory {} KiB",
        report.verdict,
        report.verdict.describe(),
        report.score,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Report, TestReport};

    fn report(message: &str) -> Report {
        let test = TestReport {
            name: "01".into(),
            group: crate::problem::Group::sample(),
            verdict: Verdict::TLE,
            time_ms: 947,
            wall_ms: 3000,
            memory_kib: 1200,
            exit_code: None,
            signal: None,
            message: message.into(),
            score: None,
            transcript: None,
        };
        Report {
            verdict: Verdict::TLE,
            score: 0,
            time_ms: 947,
            memory_kib: 1200,
            compile_output: String::new(),
            tests: vec![test],
            groups: Vec::new(),
        }
    }

    fn line(report: &Report) -> String {
        let mut out = Vec::new();
        summary(&mut out, 7, report).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Issue 47: a TLE the wall clock ended says so beside its CPU time
    /// (947 ms against a 1 s limit read as a contradiction); one the CPU
    /// limit ended reads as before.
    #[test]
    fn a_time_limit_the_wall_clock_ended_is_named() {
        let walled = line(&report(crate::judge::WALL_CLOCK));
        assert!(
            walled.contains("max CPU time 947 ms (the wall clock stopped it"),
            "{walled}"
        );
        let cpu = line(&report("CPU time limit exceeded"));
        assert!(
            cpu.contains("max time 947 ms,") && !cpu.contains("wall"),
            "{cpu}"
        );
    }
}
