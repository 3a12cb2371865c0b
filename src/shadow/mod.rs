//! Shadowing another contest system (issue 48), as a second system beside
//! the primary one at a contest: the contest set up from the other
//! system's Contest API or contest package (`import`), its event feed
//! followed and every submission judged again here (`follow`, reading
//! through `source` and `feed`), and the verdicts compared where a jury
//! looks for differences (`compare`). Judging itself is the workers' own:
//! a shadowed submission is a try of the imported contest, queued like
//! any other, and what the other system said is kept beside it by the
//! store (`store::shadows`).

pub mod compare;
pub mod feed;
pub mod follow;
pub mod import;
pub mod source;
