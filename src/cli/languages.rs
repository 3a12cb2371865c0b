//! `grundy languages`: each configured language and its toolchain.

use std::io::Write;

use crate::context::Context;

pub fn run(ctx: &Context) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut missing = 0;
    for lang in ctx.languages.iter() {
        let exts: Vec<String> = lang
            .config
            .extensions
            .iter()
            .map(|e| format!(".{e}"))
            .collect();
        let status = match lang.version(ctx.runner().as_ref()) {
            Ok(v) => v,
            Err(why) => {
                missing += 1;
                format!("MISSING: {why}")
            }
        };
        writeln!(
            out,
            "{:<8} {:<20} {:<16} {}",
            lang.id,
            lang.config.name,
            exts.join(" "),
            status
        )?;
    }
    Ok(if missing == 0 { 0 } else { 1 })
}
