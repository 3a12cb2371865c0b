//! How long what people type may be, in one table: names (an account's,
//! which is also its team's display name, a contest's, an
//! organization's, a group's), award citations, clarifications, and the
//! names a request gives for a problem, a language or a contest. Each is
//! short enough for a page, a board row or a feed to show whole.
//!
//! The edges check what they take ([`Field::check`]) with their other
//! checks, so an over-long field is one clear error (a `400` in the API, a
//! line on the command line, a message on a page); the store checks again
//! before it writes, so nothing over a bound is ever stored, whichever
//! edge it came through.

/// A field that people fill in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// An account's name, also its team's display name.
    AccountName,
    ContestName,
    OrganizationName,
    OrganizationFormalName,
    GroupName,
    /// An award's citation.
    Citation,
    /// A clarification's text: a question, an answer, an announcement.
    Clarification,
    /// A problem as a request names it (a catalog slug or a label).
    ProblemName,
    /// A language as a request names it.
    LanguageName,
    /// A contest as a request names it (its slug or its id).
    ContestRef,
    /// Why an admin withdrew a contest try (its team reads it).
    WithdrawalReason,
}

impl Field {
    /// The most characters (Unicode scalar values) the field holds.
    pub const fn max_chars(self) -> usize {
        match self {
            Field::AccountName => 32,
            Field::ContestName => 100,
            Field::OrganizationName => 100,
            Field::OrganizationFormalName => 200,
            Field::GroupName => 100,
            Field::Citation => 200,
            Field::Clarification => 4000,
            Field::ProblemName => 64,
            Field::LanguageName => 64,
            Field::ContestRef => 64,
            Field::WithdrawalReason => 500,
        }
    }

    /// The field's name in a message.
    pub const fn name(self) -> &'static str {
        match self {
            Field::AccountName => "an account name",
            Field::ContestName => "a contest's name",
            Field::OrganizationName => "an organization's name",
            Field::OrganizationFormalName => "an organization's formal name",
            Field::GroupName => "a group's name",
            Field::Citation => "a citation",
            Field::Clarification => "a clarification",
            Field::ProblemName => "a problem's name",
            Field::LanguageName => "a language's name",
            Field::ContestRef => "a contest's name",
            Field::WithdrawalReason => "a withdrawal's reason",
        }
    }

    /// Whether `text` fits.
    ///
    /// # Errors
    /// [`TooLong`] when `text` has more than [`Field::max_chars`]
    /// characters.
    pub fn check(self, text: &str) -> Result<(), TooLong> {
        let max = self.max_chars();
        // Counting stops past the bound: a megabyte is not walked whole.
        let chars = text.chars().take(max + 1).count();
        if chars > max {
            return Err(TooLong {
                field: self,
                chars: text.chars().count(),
            });
        }
        Ok(())
    }
}

/// A field over its bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} is at most {} characters; this one has {chars}", .field.name(), .field.max_chars())]
pub struct TooLong {
    pub field: Field,
    pub chars: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_fits_up_to_its_bound_in_characters_not_bytes() {
        let max = Field::OrganizationName.max_chars();
        assert_eq!(Field::OrganizationName.check(&"é".repeat(max)), Ok(()));
        let over = Field::OrganizationName.check(&"é".repeat(max + 1));
        assert_eq!(
            over,
            Err(TooLong {
                field: Field::OrganizationName,
                chars: max + 1
            })
        );
        let said = over.unwrap_err().to_string();
        assert_eq!(
            said,
            format!("an organization's name is at most {max} characters; this one has 101")
        );
        assert!(!said.contains('\n'));
        assert_eq!(Field::Citation.check(""), Ok(()));
    }
}
