//! The small chart of a submission's page: per test, CPU time against the
//! time limit and peak memory against the memory limit, as an inline SVG
//! drawn here (no chart library, nothing fetched by the browser).

use std::fmt::Write as _;

use super::markdown::escape;

/// One test's figures.
pub struct Point<'a> {
    pub name: &'a str,
    pub time_ms: u64,
    pub memory_kib: u64,
    pub failed: bool,
}

/// Two bar rows (time, memory), each scaled to its limit (or to the
/// largest value when that exceeds the limit), the limit drawn dashed.
pub fn render(points: &[Point<'_>], time_limit_ms: u64, memory_limit_kib: u64) -> String {
    if points.is_empty() {
        return String::new();
    }
    let mut svg = String::new();
    let bar = 12.0_f64;
    let gap = 4.0_f64;
    let left = 64.0_f64;
    let right = 12.0_f64;
    let width = (left + points.len() as f64 * (bar + gap) + right).max(420.0);
    let row_h = 96.0_f64;
    let height = 2.0 * row_h + 8.0;
    // Drawn at its own size in pixels, so its labels stay the size of the
    // page's small text; a narrow screen scrolls it sideways.
    let _ = write!(
        svg,
        "<svg class=\"chart\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" \
         aria-label=\"time and memory per test against the limits\" \
         xmlns=\"http://www.w3.org/2000/svg\">"
    );
    type Unit = fn(u64) -> String;
    type Figure = fn(&Point<'_>) -> u64;
    let time: Unit = |v| format!("{v} ms");
    let mem: Unit = |v| format!("{:.1} MiB", v as f64 / 1024.0);
    let rows: [(&str, u64, Figure, Unit); 2] = [
        ("CPU time", time_limit_ms, |p| p.time_ms, time),
        ("memory", memory_limit_kib, |p| p.memory_kib, mem),
    ];
    for (r, (label, limit, value, unit)) in rows.iter().enumerate() {
        let top = 4.0 + r as f64 * row_h;
        // Room above the limit line for its label.
        let ceiling = top + 16.0;
        let base = top + row_h - 10.0;
        let span = base - ceiling;
        let most = points.iter().map(value).max().unwrap_or(0);
        let scale = (*limit).max(most).max(1) as f64;
        let limit_y = base - span * (*limit as f64 / scale);
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{:.1}\" class=\"axis\">{label}</text>\
             <line x1=\"{left}\" y1=\"{base:.1}\" x2=\"{:.1}\" y2=\"{base:.1}\" class=\"base\"/>\
             <line x1=\"{left}\" y1=\"{limit_y:.1}\" x2=\"{:.1}\" y2=\"{limit_y:.1}\" class=\"limit\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"limit-label\" text-anchor=\"end\">limit {}</text>",
            base - span / 2.0 + 4.0,
            width - right,
            width - right,
            width - right,
            limit_y - 4.0,
            escape(&unit(*limit))
        );
        for (i, p) in points.iter().enumerate() {
            let v = value(p);
            let h = (span * v as f64 / scale).max(1.5);
            let x = left + 4.0 + i as f64 * (bar + gap);
            let class = if p.failed { "bar failed" } else { "bar" };
            let _ = write!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h:.1}\" rx=\"2\" class=\"{class}\">\
                 <title>{}: {}</title></rect>",
                base - h,
                escape(p.name),
                escape(&unit(v))
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bar_per_test_in_each_row_with_both_limits() {
        let points = [
            Point {
                name: "sample-1",
                time_ms: 10,
                memory_kib: 2048,
                failed: false,
            },
            Point {
                name: "<x>",
                time_ms: 900,
                memory_kib: 4096,
                failed: true,
            },
        ];
        let svg = render(&points, 1000, 256 * 1024);
        assert_eq!(svg.matches("<rect").count(), 4, "{svg}");
        assert_eq!(svg.matches("class=\"limit\"").count(), 2, "{svg}");
        assert!(svg.contains("1000 ms"), "{svg}");
        assert!(svg.contains("256.0 MiB"), "{svg}");
        assert!(svg.contains("&lt;x&gt;"), "{svg}");
        assert_eq!(svg.matches("bar failed").count(), 2, "{svg}");
    }

    #[test]
    fn no_tests_no_chart() {
        assert_eq!(render(&[], 1000, 1024), "");
    }
}
