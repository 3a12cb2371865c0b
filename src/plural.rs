//! Counted words in what grundy says: "1 problem", "2 problems". Shared
//! vocabulary for every message that puts a number before a noun.

use std::fmt::Display;

/// `one` when `n` is 1, else `many`.
pub fn plural<'a>(n: impl Display, one: &'a str, many: &'a str) -> &'a str {
    // Any integer type: a count is one exactly when it is written "1".
    if n.to_string() == "1" {
        one
    } else {
        many
    }
}

/// `n` and the noun that agrees with it: `count(1, "problem", "problems")`
/// is "1 problem", `count(0, ...)` "0 problems".
pub fn count(n: impl Display, one: &str, many: &str) -> String {
    let word = plural(&n, one, many);
    format!("{n} {word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1usize, "problem", "problems"), "1 problem");
        assert_eq!(count(0u32, "problem", "problems"), "0 problems");
        assert_eq!(
            count(2i64, "contest's record follows", "contests' records follow"),
            "2 contests' records follow"
        );
        assert_eq!(count(-1i64, "x", "xs"), "-1 xs");
        assert_eq!(count(11u8, "x", "xs"), "11 xs");
        assert_eq!(plural(1u64, "is", "are"), "is");
    }
}
