//! `grundy status ID`: a stored submission and its tests.

use std::io::Write;

use anyhow::bail;

use super::report::{self, JsonReport};
use crate::context::Context;
use crate::store::Status;

pub fn run(ctx: &Context, id: i64, json: bool) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let found = rt.block_on(store.get(id))?;
    rt.block_on(store.close());
    let Some(sub) = found else {
        bail!("no submission with id {id}");
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        let mut obj = JsonReport::new(sub.id, &sub.problem, &sub.language, sub.report.as_ref());
        obj.status = Some(sub.status);
        report::print_json(&mut out, &obj)?;
        return Ok(0);
    }
    writeln!(
        out,
        "submission {}: {} in {}, submitted {}",
        sub.id, sub.problem, sub.language, sub.submitted_at
    )?;
    match (&sub.report, sub.status) {
        (Some(r), _) => {
            report::table(&mut out, r)?;
            report::summary(&mut out, sub.id, r)?;
        }
        (None, Status::Judging) => writeln!(out, "status: judging")?,
        (None, _) => writeln!(out, "status: queued")?,
    }
    Ok(0)
}
