//! Contests: problems with labels, a time window, participants, `icpc` or
//! `ioi` scoring and a freeze, and the scoreboard as a pure function of
//! the stored submissions ([`scoreboard`]), so a rejudge changes it.
//!
//! Knows only the verdict words: the store reads and writes these types,
//! the edges (CLI, API, pages) show them.

pub mod affiliation;
pub mod awards;
pub mod clics;
pub mod collate;
pub mod scoreboard;
pub mod time;

use std::fmt;
use std::str::FromStr;

pub use scoreboard::{Attempt, Board, Cell, Judged, Row, Team, Viewer};

/// How a contest ranks its participants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// Problems solved, then penalty time.
    Icpc,
    /// The sum of the best scores.
    Ioi,
}

impl Scoring {
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::Icpc => "icpc",
            Scoring::Ioi => "ioi",
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scoring {
    type Err = String;
    fn from_str(s: &str) -> Result<Scoring, String> {
        match s {
            "icpc" => Ok(Scoring::Icpc),
            "ioi" => Ok(Scoring::Ioi),
            _ => Err(format!("scoring {s:?}: use icpc or ioi")),
        }
    }
}

/// How many teams get each medal, by rank (ranks 1 to `gold` gold, the
/// next `silver` silver, the next `bronze` bronze; ties share the better
/// medal): ICPC's 4, 4 and 4 unless a contest says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Medals {
    pub gold: u32,
    pub silver: u32,
    pub bronze: u32,
}

impl Default for Medals {
    fn default() -> Medals {
        Medals {
            gold: 4,
            silver: 4,
            bronze: 4,
        }
    }
}

impl fmt::Display for Medals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.gold, self.silver, self.bronze)
    }
}

impl FromStr for Medals {
    type Err = String;
    /// `G,S,B`: three whole numbers, each 0 to 1000.
    fn from_str(s: &str) -> Result<Medals, String> {
        let bad = || format!("medals {s:?}: give gold,silver,bronze counts, e.g. 4,4,4");
        let counts: Vec<u32> = s
            .split(',')
            .map(|n| n.trim().parse::<u32>().ok().filter(|&n| n <= 1000))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        match counts[..] {
            [gold, silver, bronze] => Ok(Medals {
                gold,
                silver,
                bronze,
            }),
            _ => Err(bad()),
        }
    }
}

/// One problem of a contest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContestProblem {
    /// `A`, `B`, ...
    pub label: String,
    /// The catalog slug.
    pub slug: String,
    /// The balloon colour set for this contest (`#rrggbb`); `None`: the
    /// problem's own, if its problem.toml gives one.
    pub rgb: Option<String>,
}

/// Where a contest is in its window at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Before,
    Running,
    Ended,
}

/// A contest as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contest {
    pub id: i64,
    /// The short name in URLs and the CLICS API's id.
    pub slug: String,
    pub name: String,
    pub start_ms: i64,
    pub duration_s: i64,
    /// How long before the end the scoreboard freezes (0: never).
    pub freeze_s: i64,
    /// Minutes added per rejected try on a solved problem (ICPC).
    pub penalty_min: i64,
    pub scoring: Scoring,
    /// Every signed-in user takes part (else only the named ones).
    pub open_to_all: bool,
    /// The scoreboard is shown to anyone.
    pub board_public: bool,
    /// An admin's freeze before the scheduled one.
    pub frozen_ms: Option<i64>,
    /// When an admin revealed the frozen results (only after the end of a
    /// frozen contest: [`Contest::may_thaw`]).
    pub thawed_ms: Option<i64>,
    /// When an admin declared the results final ([`Contest::may_finalize`]).
    pub finalized_ms: Option<i64>,
    /// The medals its awards give ([`awards`]).
    pub medals: Medals,
    pub problems: Vec<ContestProblem>,
}

impl Contest {
    pub fn end_ms(&self) -> i64 {
        self.start_ms + self.duration_s * 1000
    }

    /// When the scoreboard freezes (or froze), if it does.
    pub fn freeze_ms(&self) -> Option<i64> {
        freeze_of(self.end_ms(), self.freeze_s, self.frozen_ms)
    }

    /// The freeze settings (`freeze_s`, `frozen_ms`) that new settings
    /// ending at `end_ms` with a freeze of `freeze_s` before the end get
    /// when they replace this contest's at `now`. A jury's rules:
    /// - a freeze that has begun stays where it began when the end moves
    ///   (its length before the new end is adjusted, so nothing hidden is
    ///   shown and nothing shown is hidden);
    /// - a begun freeze may move later or be removed (what it hid before
    ///   its new place is then revealed by the caller), never earlier;
    /// - a freeze that has not begun may not be set to begin in the past,
    ///   which would hide results already shown.
    ///
    /// # Errors
    /// Why the change would hide what was shown, in words.
    pub fn freeze_after_edit(
        &self,
        end_ms: i64,
        freeze_s: i64,
        now: i64,
    ) -> Result<(i64, Option<i64>), String> {
        let next = freeze_of(end_ms, freeze_s, self.frozen_ms);
        let Some(began) = self.freeze_ms().filter(|_| self.is_frozen(now)) else {
            return match next {
                Some(f) if f < now && next != self.freeze_ms() => Err(format!(
                    "the freeze would begin at {}, which has passed: results shown since would be \
                     hidden again (freeze the scoreboard now instead)",
                    time::format_human(f)
                )),
                _ => Ok((freeze_s, self.frozen_ms)),
            };
        };
        if freeze_s != self.freeze_s {
            // The jury moved the freeze itself.
            return match next {
                Some(f) if f < began => Err(format!(
                    "the scoreboard froze at {}: the freeze cannot move earlier, which would hide \
                     results already shown",
                    time::format_human(began)
                )),
                _ => Ok((freeze_s, self.frozen_ms)),
            };
        }
        // The end moved (or nothing did): the freeze stays where it began.
        let kept_s = (end_ms - began).max(0) / 1000;
        let scheduled = freeze_of(end_ms, kept_s, None);
        let frozen_ms = if scheduled == Some(began) {
            self.frozen_ms.filter(|&f| f >= began)
        } else {
            Some(began)
        };
        Ok((kept_s, frozen_ms))
    }

    pub fn phase(&self, now_ms: i64) -> Phase {
        if now_ms < self.start_ms {
            Phase::Before
        } else if now_ms < self.end_ms() {
            Phase::Running
        } else {
            Phase::Ended
        }
    }

    /// Whether results after the freeze are hidden from others now.
    pub fn is_frozen(&self, now_ms: i64) -> bool {
        self.thawed_ms.is_none() && self.freeze_ms().is_some_and(|f| now_ms >= f)
    }

    /// From when on others' results are hidden from `viewer` now
    /// (`None`: nothing is): the freeze time while the contest is frozen,
    /// for anyone but an admin.
    pub fn hidden_from(&self, viewer: Viewer, now_ms: i64) -> Option<i64> {
        match viewer {
            Viewer::Admin => None,
            _ if self.is_frozen(now_ms) => self.freeze_ms(),
            _ => None,
        }
    }

    /// The freeze's one rule: whether the result of a try by `team` (`None`:
    /// no account) made at `at_ms` is hidden from `viewer` now. A team
    /// always sees its own; admins see everything; others see nothing of
    /// a try made at or after the freeze until the results are revealed.
    pub fn hides(&self, viewer: Viewer, team: Option<i64>, at_ms: i64, now_ms: i64) -> bool {
        let own = matches!((viewer, team), (Viewer::Team(v), Some(t)) if v == t);
        !own && self.hidden_from(viewer, now_ms).is_some_and(|f| at_ms >= f)
    }

    /// When the scoreboard froze or freezes, as the standard's state has
    /// it: a scheduled freeze at or after the end is none.
    pub fn state_frozen_ms(&self) -> Option<i64> {
        self.freeze_ms()
            .filter(|&f| f < self.end_ms() || self.frozen_ms.is_some())
    }

    /// When the last update was made (`end_of_updates`), if it was: the
    /// results are final, and revealed where the contest was frozen. The
    /// contest must not change after it.
    pub fn end_of_updates_ms(&self) -> Option<i64> {
        let finalized = self.finalized_ms?;
        match (self.state_frozen_ms(), self.thawed_ms) {
            (None, _) => Some(finalized),
            (Some(_), Some(thawed)) => Some(finalized.max(thawed)),
            (Some(_), None) => None,
        }
    }

    /// Whether an admin may freeze the scoreboard at `now`: only while the
    /// contest runs (the standard's `started < frozen < ended`).
    ///
    /// # Errors
    /// Why not, in words.
    pub fn may_freeze(&self, now: i64) -> Result<(), String> {
        match self.phase(now) {
            Phase::Before => Err("the contest has not started yet".into()),
            Phase::Ended => {
                Err("the contest has ended; its scoreboard can no longer be frozen".into())
            }
            Phase::Running if self.thawed_ms.is_some() => {
                Err("its results were already revealed".into())
            }
            Phase::Running => Ok(()),
        }
    }

    /// Whether an admin may reveal the frozen results at `now`: only
    /// after the end of a contest that was frozen, once (`frozen < ended
    /// < thawed`).
    ///
    /// # Errors
    /// Why not, in words.
    pub fn may_thaw(&self, now: i64) -> Result<(), String> {
        if self.state_frozen_ms().is_none() {
            Err("its scoreboard was never frozen".into())
        } else if self.phase(now) != Phase::Ended {
            Err("the contest has not ended yet; reveal the results after its end".into())
        } else if self.thawed_ms.is_some() {
            Err("its results are already revealed".into())
        } else {
            Ok(())
        }
    }

    /// Whether the contest's times allow finalizing its results at `now`
    /// (the store checks the rest: every try judged without an error,
    /// every question answered).
    ///
    /// # Errors
    /// Why not, in words.
    pub fn may_finalize(&self, now: i64) -> Result<(), String> {
        if self.phase(now) != Phase::Ended {
            Err("the contest has not ended yet".into())
        } else if self.finalized_ms.is_some() {
            Err("its results are already final".into())
        } else {
            Ok(())
        }
    }

    /// The label of catalog problem `slug` in this contest.
    pub fn label_of(&self, slug: &str) -> Option<&str> {
        self.problems
            .iter()
            .find(|p| p.slug == slug)
            .map(|p| p.label.as_str())
    }

    /// The problem labelled `label`.
    pub fn problem(&self, label: &str) -> Option<&ContestProblem> {
        self.problems.iter().find(|p| p.label == label)
    }
}

/// When a contest ending at `end_ms` freezes: `freeze_s` before its end
/// (0: no scheduled freeze) or at an admin's freeze `frozen_ms`,
/// whichever comes first.
fn freeze_of(end_ms: i64, freeze_s: i64, frozen_ms: Option<i64>) -> Option<i64> {
    let scheduled = (freeze_s > 0).then(|| end_ms - freeze_s * 1000);
    match (scheduled, frozen_ms) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The labels `A`, `B`, ..., `Z`, `AA`, ... for `n` problems.
pub fn labels(n: usize) -> Vec<String> {
    (0..n)
        .map(|mut i| {
            let mut label = Vec::new();
            loop {
                label.push(b'A' + (i % 26) as u8);
                if i < 26 {
                    break;
                }
                i = i / 26 - 1;
            }
            label.reverse();
            String::from_utf8(label).unwrap_or_default()
        })
        .collect()
}

/// Whether `slug` may name a contest: 1 to 36 letters, digits, `-`, `_`,
/// `.`, not starting with `-` or `.` (the CLICS API's id rule), and not
/// all digits (a number is a contest's id).
pub fn valid_slug(slug: &str) -> bool {
    (1..=36).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        && !slug.starts_with(['-', '.'])
        // A number names a contest by its id.
        && !slug.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contest() -> Contest {
        Contest {
            id: 1,
            slug: "c".into(),
            name: "C".into(),
            start_ms: 1_000_000,
            duration_s: 3600,
            freeze_s: 600,
            penalty_min: 20,
            scoring: Scoring::Icpc,
            open_to_all: true,
            board_public: true,
            frozen_ms: None,
            thawed_ms: None,
            finalized_ms: None,
            medals: Medals::default(),
            problems: vec![],
        }
    }

    #[test]
    fn the_window_and_the_freeze() {
        let mut c = contest();
        assert_eq!(c.phase(999_999), Phase::Before);
        assert_eq!(c.phase(1_000_000), Phase::Running);
        assert_eq!(c.phase(c.end_ms()), Phase::Ended);
        assert_eq!(c.freeze_ms(), Some(c.end_ms() - 600_000));
        assert!(!c.is_frozen(c.end_ms() - 600_001));
        assert!(c.is_frozen(c.end_ms() - 600_000));
        assert!(
            c.is_frozen(c.end_ms() + 1),
            "frozen after the end until revealed"
        );
        c.frozen_ms = Some(1_100_000);
        assert_eq!(
            c.freeze_ms(),
            Some(1_100_000),
            "an admin's freeze comes first"
        );
        c.thawed_ms = Some(c.end_ms() + 5);
        assert!(!c.is_frozen(c.end_ms() + 10));
        c.freeze_s = 0;
        c.frozen_ms = None;
        c.thawed_ms = None;
        assert!(!c.is_frozen(c.end_ms()));
    }

    #[test]
    fn the_freeze_hides_others_tries_after_it_until_revealed() {
        let mut c = contest();
        let freeze = c.end_ms() - 600_000;
        let (before, after) = (freeze - 1, freeze);
        let now = freeze + 1000;
        assert!(c.hides(Viewer::Public, Some(7), after, now));
        assert!(c.hides(Viewer::Team(8), Some(7), after, now));
        assert!(c.hides(Viewer::Team(8), None, after, now));
        assert!(
            !c.hides(Viewer::Team(7), Some(7), after, now),
            "a team's own"
        );
        assert!(!c.hides(Viewer::Admin, Some(7), after, now));
        assert!(
            !c.hides(Viewer::Public, Some(7), before, now),
            "made before"
        );
        assert!(
            !c.hides(Viewer::Public, Some(7), after, freeze - 10),
            "not frozen yet"
        );
        c.thawed_ms = Some(c.end_ms() + 1);
        assert!(!c.hides(Viewer::Public, Some(7), after, c.end_ms() + 2));
    }

    #[test]
    fn a_begun_freeze_stays_where_it_began() {
        let c = contest();
        let freeze = c.end_ms() - 600_000;
        let now = freeze + 300_000;
        // Extended by 30 minutes during the freeze: it stays at `freeze`.
        let end = c.end_ms() + 1_800_000;
        let (freeze_s, frozen_ms) = c.freeze_after_edit(end, c.freeze_s, now).unwrap();
        let moved = Contest {
            duration_s: c.duration_s + 1800,
            freeze_s,
            frozen_ms,
            ..c.clone()
        };
        assert_eq!(moved.freeze_ms(), Some(freeze));
        assert!(moved.is_frozen(now));
        assert_eq!((freeze_s, frozen_ms), (2400, None), "a whole freeze length");
        // Shortened: still where it began.
        let end = c.end_ms() - 120_000;
        let (freeze_s, frozen_ms) = c.freeze_after_edit(end, c.freeze_s, now).unwrap();
        assert_eq!(freeze_of(end, freeze_s, frozen_ms), Some(freeze));
        // An admin's freeze at an odd millisecond, then an extension.
        let admin = Contest {
            frozen_ms: Some(freeze - 12_345),
            ..c.clone()
        };
        let (freeze_s, frozen_ms) = admin
            .freeze_after_edit(c.end_ms() + 60_000, c.freeze_s, now)
            .unwrap();
        assert_eq!(
            freeze_of(c.end_ms() + 60_000, freeze_s, frozen_ms),
            Some(freeze - 12_345)
        );
        // Moved later or removed: allowed (the store reveals); earlier: refused.
        assert_eq!(c.freeze_after_edit(c.end_ms(), 0, now), Ok((0, None)));
        assert_eq!(c.freeze_after_edit(c.end_ms(), 60, now), Ok((60, None)));
        assert!(c.freeze_after_edit(c.end_ms(), 1200, now).is_err());
        // Not begun yet: it may not be set to begin in the past.
        let early = freeze - 100_000;
        assert!(c.freeze_after_edit(c.end_ms(), 1200, early).is_err());
        assert_eq!(c.freeze_after_edit(c.end_ms(), 660, early), Ok((660, None)));
    }

    #[test]
    fn labels_and_slugs() {
        assert_eq!(labels(3), ["A", "B", "C"]);
        assert_eq!(labels(28)[25..], ["Z", "AA", "AB"]);
        assert!(valid_slug("nwerc-2026"));
        assert!(!valid_slug(".hidden") && !valid_slug("") && !valid_slug("a b"));
        assert!(!valid_slug(&"x".repeat(37)));
        assert!(!valid_slug("1") && !valid_slug("007") && valid_slug("2026a"));
        assert_eq!("ioi".parse::<Scoring>(), Ok(Scoring::Ioi));
        assert_eq!(
            "1, 2,3".parse::<Medals>(),
            Ok(Medals {
                gold: 1,
                silver: 2,
                bronze: 3
            })
        );
        assert_eq!(Medals::default().to_string(), "4,4,4");
        for bad in ["", "4,4", "4,4,4,4", "a,1,1", "-1,1,1", "1,1,1001"] {
            assert!(bad.parse::<Medals>().is_err(), "{bad:?}");
        }
        assert!("acm".parse::<Scoring>().is_err());
    }
}
