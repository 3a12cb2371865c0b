//! `grundy doctor`: the sandbox tiers in force on this machine, what is
//! missing for better ones, and whether each language's toolchain works
//! inside the box.
//!
//! Exit status: 0 when programs run isolated and every toolchain works,
//! 1 otherwise (the judge still runs, with what is printed).

use std::io::Write;

use crate::context::Context;
use crate::sandbox::IsolationTier;

pub fn run(ctx: &Context) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let tiers = ctx.tiers();
    writeln!(out, "{}", ctx.tiers_text())?;
    let mut ok = tiers.isolation != IsolationTier::None && tiers.refused.is_none();
    for lang in ctx.languages.iter() {
        let status = match lang.version(ctx.runner().as_ref()) {
            Ok(v) => format!("ok ({v})"),
            Err(why) => {
                ok = false;
                format!("BROKEN: {why}")
            }
        };
        writeln!(out, "language:    {:<8} {status}", lang.id)?;
    }
    Ok(if ok { 0 } else { 1 })
}
