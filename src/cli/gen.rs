//! `grundy gen [PROBLEM...|--all]`: produce (or find cached) test data.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::bail;

use crate::context::{default_jobs, Context};
use crate::data::Progress;

pub fn run(ctx: &Context, slugs: &[String], all: bool) -> anyhow::Result<u8> {
    let slugs = if all {
        ctx.catalog.slugs()?
    } else if slugs.is_empty() {
        bail!("name the problems to generate, or give --all");
    } else {
        slugs.to_vec()
    };
    let data = ctx.test_data(default_jobs());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0;
    let tty = std::io::stderr().is_terminal();
    for slug in &slugs {
        let start = Instant::now();
        let result = ctx
            .catalog
            .load(slug)
            .map_err(anyhow::Error::from)
            .and_then(|p| {
                data.mend(&p, &|progress| {
                    if let (true, Progress::Test { done, total }) = (tty, progress) {
                        eprint!("\r{slug}: {done}/{total} tests");
                    }
                })
                .map_err(anyhow::Error::from)
            });
        match result {
            Ok(set) => {
                if tty {
                    eprint!("\r\x1b[K");
                }
                let how = if set.built { "generated" } else { "up to date" };
                writeln!(
                    out,
                    "{slug}: {} tests {how} ({:.1} s) in {}",
                    set.index.tests.len(),
                    start.elapsed().as_secs_f64(),
                    set.dir.display()
                )?;
            }
            Err(e) => {
                if tty {
                    eprint!("\r\x1b[K");
                }
                failed += 1;
                eprintln!("grundy: {}", super::one_line(&e));
            }
        }
    }
    Ok(if failed == 0 { 0 } else { 2 })
}
