//! Balloon colours, as the CLICS Contest API has them: `rgb` (`#rrggbb`)
//! and `color`, a name people read. Shared vocabulary: a problem's
//! manifest and a contest's settings both give colours.

/// A balloon colour as the API sends it, `#rrggbb` in lower case, from
/// `#rgb`, `#rrggbb` or the same without `#`.
///
/// # Errors
/// One line saying how to write it.
pub fn parse_rgb(s: &str) -> Result<String, String> {
    let hex = s.trim().trim_start_matches('#');
    let ok = hex.bytes().all(|b| b.is_ascii_hexdigit());
    let full = match hex.len() {
        6 if ok => hex.to_ascii_lowercase(),
        3 if ok => hex
            .chars()
            .flat_map(|c| [c, c])
            .collect::<String>()
            .to_ascii_lowercase(),
        _ => return Err(format!("colour {s:?}: write it as #rrggbb or #rgb")),
    };
    Ok(format!("#{full}"))
}

/// The colours balloons come in, for naming an `rgb`.
const NAMES: [(&str, [u8; 3]); 20] = [
    ("black", [0, 0, 0]),
    ("white", [255, 255, 255]),
    ("gray", [128, 128, 128]),
    ("silver", [192, 192, 192]),
    ("red", [255, 0, 0]),
    ("maroon", [128, 0, 0]),
    ("orange", [255, 165, 0]),
    ("gold", [255, 215, 0]),
    ("yellow", [255, 255, 0]),
    ("olive", [128, 128, 0]),
    ("lime", [0, 255, 0]),
    ("green", [0, 128, 0]),
    ("teal", [0, 128, 128]),
    ("cyan", [0, 255, 255]),
    ("blue", [0, 0, 255]),
    ("navy", [0, 0, 128]),
    ("purple", [128, 0, 128]),
    ("magenta", [255, 0, 255]),
    ("pink", [255, 192, 203]),
    ("brown", [165, 42, 42]),
];

/// The nearest of the common colour names to `rgb` (`#rrggbb`): the
/// standard's human-readable `color` beside it.
pub fn color_name(rgb: &str) -> &'static str {
    let channel = |i: usize| {
        u8::from_str_radix(rgb.get(1 + 2 * i..3 + 2 * i).unwrap_or("0"), 16).unwrap_or(0)
    };
    let [r, g, b] = [channel(0), channel(1), channel(2)].map(i32::from);
    NAMES
        .iter()
        .min_by_key(|(_, [nr, ng, nb])| {
            let (dr, dg, db) = (r - i32::from(*nr), g - i32::from(*ng), b - i32::from(*nb));
            // Weighted as the eye weighs the channels.
            3 * dr * dr + 4 * dg * dg + 2 * db * db
        })
        .map_or("black", |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_normalised_and_named() {
        assert_eq!(parse_rgb("#ABC").unwrap(), "#aabbcc");
        assert_eq!(parse_rgb("ff0000").unwrap(), "#ff0000");
        assert!(parse_rgb("red").unwrap_err().contains("#rrggbb"));
        assert_eq!(color_name("#ff0000"), "red");
        assert_eq!(color_name("#fe0101"), "red");
        assert_eq!(color_name("#0000f0"), "blue");
        assert_eq!(color_name("#ffd000"), "gold");
    }
}
