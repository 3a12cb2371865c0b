//! The contests' clock: each contest's moments (`started`, `frozen`,
//! `ended`, and its problems for everyone at the start) are appended to its
//! record at their time, whether or not a feed reader or an export is
//! there to catch the record up. Every server sharing the database runs
//! one; catching up is idempotent under the contest's lock, so two clocks
//! append a moment once.

use std::time::Duration;

use tokio::sync::watch;

use crate::contest::Contest;
use crate::store::Store;

/// How often the clock looks. A moment reaches the record within this
/// (a try made meanwhile catches the record up itself first).
const TICK: Duration = Duration::from_secs(1);

/// How far back a moment is looked at again, for a database clock behind
/// this machine's: catching up at a moment the database has not reached
/// yet writes nothing, and the next ticks try again.
const SKEW_MS: i64 = 10_000;

/// The moments of `c` in `(after, upto]`, for the ticks to act on.
fn moment_between(c: &Contest, after: i64, upto: i64) -> bool {
    [Some(c.start_ms), c.freeze_ms(), Some(c.end_ms())]
        .into_iter()
        .flatten()
        .any(|m| after < m && m <= upto)
}

/// Runs the clock over `store` until `stop` turns true. The first tick
/// catches every contest up (a server that was down over a moment).
pub async fn run(store: Store, mut stop: watch::Receiver<bool>) {
    let mut last: Option<i64> = None;
    loop {
        let now = crate::site::practice::now_ms();
        match store.contests().await {
            Ok(contests) => {
                for c in contests {
                    let due = match last {
                        None => c.end_of_updates_ms().is_none(),
                        Some(last) => moment_between(&c, last - SKEW_MS, now),
                    };
                    if due {
                        if let Err(e) = store.catch_up_contest(c.id).await {
                            crate::site::log_internal(&e, "the contest clock");
                        }
                    }
                }
                last = Some(now);
            }
            Err(e) => crate::site::log_internal(&e, "the contest clock"),
        }
        tokio::select! {
            () = tokio::time::sleep(TICK) => {}
            _ = stop.wait_for(|stopping| *stopping) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{Medals, Scoring};

    #[test]
    fn the_moments_a_tick_acts_on() {
        let c = Contest {
            id: 1,
            slug: "c".into(),
            name: "C".into(),
            start_ms: 10_000,
            duration_s: 100,
            freeze_s: 20,
            penalty_min: 20,
            scoring: Scoring::Icpc,
            open_to_all: true,
            board_public: true,
            frozen_ms: None,
            thawed_ms: None,
            finalized_ms: None,
            medals: Medals::default(),
            problems: vec![],
        };
        assert!(moment_between(&c, 9_999, 10_000), "the start");
        assert!(!moment_between(&c, 10_000, 89_999), "nothing between");
        assert!(moment_between(&c, 89_000, 90_000), "the freeze");
        assert!(moment_between(&c, 109_500, 110_000), "the end");
        assert!(!moment_between(&c, 110_000, 200_000), "after the end");
    }
}
