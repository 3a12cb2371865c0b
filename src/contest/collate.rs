//! Alphabetical order of team names as the Contest API's scoreboard asks
//! for it (teams of equal rank, "alphabetical on team name ... according
//! to the Unicode Collation Algorithm, by default using the en-US
//! locale"), without a collation library: the default table's three
//! levels for the text teams are named in.
//!
//! - Primary: spaces, then punctuation and symbols, then digits, then
//!   letters; a Latin letter counts as its base letter whatever its case
//!   or accent (`É` as `e`, `ß` as `ss`, `æ` as `ae`), and letters of other
//!   scripts follow the Latin ones by code point.
//! - Secondary: unaccented before accented.
//! - Tertiary: lower case before upper case.
//!
//! Names equal at all three levels are ordered by their code points, so
//! the order is total and the same on every run.

use std::cmp::Ordering;

/// Accented Latin letters by the base letter they sort as; an accent's
/// secondary weight is its place in the list.
const ACCENTED: &[(&str, char)] = &[
    ("àáâãäåāăą", 'a'),
    ("çćĉċč", 'c'),
    ("ďđ", 'd'),
    ("èéêëēĕėęě", 'e'),
    ("ĝğġģ", 'g'),
    ("ĥħ", 'h'),
    ("ìíîïĩīĭįı", 'i'),
    ("ĵ", 'j'),
    ("ķ", 'k'),
    ("ĺļľŀł", 'l'),
    ("ñńņňŉ", 'n'),
    ("òóôõöøōŏő", 'o'),
    ("ŕŗř", 'r'),
    ("śŝşš", 's'),
    ("ţťŧ", 't'),
    ("ùúûüũūŭůűų", 'u'),
    ("ŵ", 'w'),
    ("ýÿŷ", 'y'),
    ("źżž", 'z'),
];

/// One collation element: the three levels' weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Element {
    primary: (u8, u32),
    secondary: u8,
    tertiary: u8,
}

/// The collation elements of `text`, in order.
fn elements(text: &str) -> Vec<Element> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        let tertiary = u8::from(lower != c);
        let letter = |base: char, secondary: u8| Element {
            primary: (3, base as u32),
            secondary,
            tertiary,
        };
        match lower {
            'a'..='z' => out.push(letter(lower, 0)),
            'ß' => {
                out.push(letter('s', 1));
                out.push(letter('s', 1));
            }
            'æ' => {
                out.push(letter('a', 1));
                out.push(letter('e', 1));
            }
            'œ' => {
                out.push(letter('o', 1));
                out.push(letter('e', 1));
            }
            _ => {
                if let Some((accent, base)) = ACCENTED.iter().find_map(|(list, base)| {
                    list.chars()
                        .position(|a| a == lower)
                        .map(|i| (i as u8 + 1, *base))
                }) {
                    out.push(letter(base, accent));
                } else if c.is_whitespace() {
                    out.push(Element {
                        primary: (0, 0),
                        secondary: 0,
                        tertiary: 0,
                    });
                } else if let Some(d) = c.to_digit(10) {
                    out.push(Element {
                        primary: (2, d),
                        secondary: 0,
                        tertiary: 0,
                    });
                } else if c.is_alphanumeric() {
                    // Other scripts: after every Latin letter, by code point.
                    out.push(Element {
                        primary: (4, lower as u32),
                        secondary: 0,
                        tertiary,
                    });
                } else {
                    out.push(Element {
                        primary: (1, c as u32),
                        secondary: 0,
                        tertiary: 0,
                    });
                }
            }
        }
    }
    out
}

/// A name's place in the order, made once to be compared many times
/// (a board sorts each team's once): keys compare as [`compare`] compares
/// their names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    primary: Vec<(u8, u32)>,
    secondary: Vec<u8>,
    tertiary: Vec<u8>,
    text: String,
}

/// The collation key of `text`.
pub fn key(text: &str) -> Key {
    let elements = elements(text);
    Key {
        primary: elements.iter().map(|e| e.primary).collect(),
        secondary: elements.iter().map(|e| e.secondary).collect(),
        tertiary: elements.iter().map(|e| e.tertiary).collect(),
        text: text.to_owned(),
    }
}

/// The order of names `a` and `b`.
pub fn compare(a: &str, b: &str) -> Ordering {
    key(a).cmp(&key(b))
}

#[cfg(test)]
mod tests {
    use super::compare;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| compare(a, b));
        v
    }

    #[test]
    fn case_and_accents_do_not_come_first() {
        // Byte order puts every capital and every accented letter apart.
        assert_eq!(
            sorted(&["beta", "Émile", "Alpha", "emma", "Eliza", "zeta", "Ärger"]),
            ["Alpha", "Ärger", "beta", "Eliza", "Émile", "emma", "zeta"]
        );
    }

    #[test]
    fn levels_break_ties_in_order() {
        assert_eq!(sorted(&["A", "a", "á"]), ["a", "A", "á"]);
        assert_eq!(
            sorted(&["team-1", "team 2", "team10", "team9"]),
            ["team 2", "team-1", "team10", "team9"]
        );
        assert_eq!(
            sorted(&["Straße", "Strasse", "Strasze"]),
            ["Strasse", "Straße", "Strasze"]
        );
        assert_eq!(sorted(&["Zoë", "Ωmega", "Zoe"]), ["Zoe", "Zoë", "Ωmega"]);
    }
}
