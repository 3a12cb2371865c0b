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
    let bar = 14.0_f64;
    let gap = 4.0_f64;
    let left = 70.0_f64;
    let width = (left + points.len() as f64 * (bar + gap) + 10.0).max(260.0);
    let row_h = 90.0_f64;
    let height = 2.0 * row_h + 30.0;
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" \
         aria-label=\"time and memory per test against the limits\" \
         xmlns=\"http://www.w3.org/2000/svg\">"
    );
    let rows: [(&str, u64, Box<dyn Fn(&Point<'_>) -> u64>, fn(u64) -> String); 2] = [
        ("time", time_limit_ms, Box::new(|p| p.time_ms), |v| {
            format!("{v} ms")
        }),
        (
            "memory",
            memory_limit_kib,
            Box::new(|p| p.memory_kib),
            |v| format!("{:.1} MiB", v as f64 / 1024.0),
        ),
    ];
    for (r, (label, limit, value, unit)) in rows.iter().enumerate() {
        let top = 10.0 + r as f64 * (row_h + 10.0);
        let base = top + row_h - 14.0;
        let span = base - top;
        let most = points.iter().map(|p| value(p)).max().unwrap_or(0);
        let scale = (*limit).max(most).max(1) as f64;
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{:.1}\" class=\"axis\">{label}</text>\
             <line x1=\"{left}\" y1=\"{base:.1}\" x2=\"{:.1}\" y2=\"{base:.1}\" class=\"base\"/>",
            top + 12.0,
            width - 6.0
        );
        let limit_y = base - span * (*limit as f64 / scale);
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{limit_y:.1}\" x2=\"{:.1}\" y2=\"{limit_y:.1}\" class=\"limit\"/>\
             <text x=\"4\" y=\"{:.1}\" class=\"limit-label\">{}</text>",
            width - 6.0,
            limit_y + 4.0,
            escape(&unit(*limit))
        );
        for (i, p) in points.iter().enumerate() {
            let v = value(p);
            let h = (span * v as f64 / scale).max(1.0);
            let x = left + 4.0 + i as f64 * (bar + gap);
            let class = if p.failed { "bar failed" } else { "bar" };
            let _ = write!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h:.1}\" class=\"{class}\">\
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
