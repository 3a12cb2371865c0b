//! `grundy problems` and `grundy show PROBLEM`.

use std::io::Write;

use serde::Serialize;

use crate::context::Context;

#[derive(Serialize)]
struct Row {
    slug: String,
    name: String,
    source: String,
    time_limit: f64,
    memory_limit: u64,
    tests: usize,
}

pub fn list(ctx: &Context, json: bool) -> anyhow::Result<u8> {
    let mut rows = Vec::new();
    let mut broken = Vec::new();
    for slug in ctx.catalog.slugs()? {
        match ctx.catalog.load(&slug) {
            Ok(p) => rows.push(Row {
                slug,
                name: p.manifest.name.clone(),
                source: p.manifest.source.clone(),
                time_limit: p.manifest.time_limit,
                memory_limit: p.manifest.memory_limit,
                tests: p.manifest.tests.len(),
            }),
            Err(e) => broken.push(e),
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        serde_json::to_writer(&mut out, &rows)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{:<20} {:<34} {:>6} {:>8} {:>6}",
            "problem", "title", "time", "memory", "tests"
        )?;
        for r in &rows {
            writeln!(
                out,
                "{:<20} {} {:>5}s {:>4} MiB {:>6}",
                r.slug,
                cell(&r.name, 34),
                r.time_limit,
                r.memory_limit,
                r.tests
            )?;
        }
    }
    for e in &broken {
        eprintln!("grundy: skipped a broken package: {e}");
    }
    Ok(if broken.is_empty() { 0 } else { 2 })
}

/// `s` in a column `width` terminal cells wide: cut with `…` where it is
/// wider, padded with spaces where narrower. Widths are display widths, so a
/// CJK character (two cells) counts twice and the next column still lines up.
fn cell(s: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let w = |c: char| c.width().unwrap_or(0);
    let mut out = String::new();
    let mut used = 0;
    if unicode_width::UnicodeWidthStr::width(s) > width {
        for c in s.chars() {
            if used + w(c) > width - 1 {
                break;
            }
            used += w(c);
            out.push(c);
        }
        out.push('…');
        used += 1;
    } else {
        out.push_str(s);
        used = unicode_width::UnicodeWidthStr::width(s);
    }
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

pub fn show(ctx: &Context, slug: &str) -> anyhow::Result<u8> {
    let p = ctx.catalog.load(slug)?;
    let statement = p.statement()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{} — {}", p.slug, p.manifest.name)?;
    writeln!(out, "source: {}", p.manifest.source)?;
    writeln!(
        out,
        "limits: {} s CPU, {} MiB memory; {}",
        p.manifest.time_limit,
        p.manifest.memory_limit,
        crate::plural::count(p.manifest.tests.len(), "test", "tests")
    )?;
    writeln!(out)?;
    write!(out, "{statement}")?;
    if !statement.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(0)
}

/// `grundy show PROBLEM --tests`: the provenance recorded for every test.
pub fn show_tests(ctx: &Context, slug: &str, json: bool) -> anyhow::Result<u8> {
    let p = ctx.catalog.load(slug)?;
    let data = ctx.test_data();
    let set = data.ensure(&p, &|_| {})?;
    let index = &set.index;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        serde_json::to_writer(&mut out, index)?;
        writeln!(out)?;
        return Ok(0);
    }
    let short = |h: &str| h.chars().take(12).collect::<String>();
    let program = |h: &Option<String>| h.as_deref().map_or("(none)".to_string(), short);
    writeln!(out, "{} — {}", p.slug, p.manifest.name)?;
    writeln!(out, "data:      {}", set.dir.display())?;
    writeln!(out, "generator: {}", program(&index.generator_sha256))?;
    writeln!(out, "validator: {}", program(&index.validator_sha256))?;
    writeln!(out, "solution:  {}", short(&index.solution_sha256))?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<32} {:<6} {:>10} {:<12} {:>10} {:<12} {:>7}  origin",
        "test", "group", "in bytes", "in sha256", "ans bytes", "ans sha256", "solver"
    )?;
    for t in &index.tests {
        writeln!(
            out,
            "{:<32} {:<6} {:>10} {:<12} {:>10} {:<12} {:>5}ms  {}",
            t.name,
            t.group.as_str(),
            t.input_bytes,
            short(&t.input_sha256),
            t.answer_bytes,
            short(&t.answer_sha256),
            t.solver_ms,
            t.origin
        )?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::cell;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn a_cell_is_as_wide_on_screen_as_asked_whatever_the_script() {
        for title in [
            "Nim",
            "取石子游戏",
            "取石子游戏：多堆版本与斯普拉格－格兰迪定理的证明",
            "a…",
        ] {
            let c = cell(title, 20);
            assert_eq!(c.width(), 20, "{title:?} became {c:?}");
        }
        assert_eq!(cell("取石子", 20).trim_end(), "取石子");
        // Cut on a character, never in the middle of a wide one: the
        // column left over is padded.
        assert_eq!(cell("取石子游戏", 6), "取石… ");
    }
}
