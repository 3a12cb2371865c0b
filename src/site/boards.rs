//! The scoreboard's inputs per contest, kept between requests: many
//! viewers polling a board (a contest's every team, the public, the
//! Contest API's clients) cost one cheap version read each, and one read
//! of the whole history per change rather than per request. The board
//! itself is still computed per viewer from them (the freeze differs by
//! viewer and by the time).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::contest::{Attempt, Contest, Team};
use crate::store::{self, ContestVersion, Store};

/// A contest's participants and tries as last read.
#[derive(Clone)]
pub struct Inputs {
    pub teams: Arc<[Team]>,
    pub attempts: Arc<[Attempt]>,
}

struct Kept {
    /// The contest's settings that choose its teams.
    open_to_all: bool,
    version: ContestVersion,
    inputs: Inputs,
}

/// The kept inputs, by contest id (one store per state, so one database).
#[derive(Default)]
pub struct Boards {
    kept: Mutex<HashMap<i64, Kept>>,
    /// Held while reading a history again: the requests that find the
    /// same change wait for that one read instead of each making its own.
    reading: tokio::sync::Mutex<()>,
}

impl Boards {
    /// `contest`'s teams and tries now: the kept ones while the store's
    /// version of them is unchanged, else read again.
    ///
    /// # Errors
    /// Database failures.
    pub async fn inputs(&self, store: &Store, contest: &Contest) -> Result<Inputs, store::Error> {
        // The version first: what is read after it is at least as new, so
        // a change between the two reads only costs one more read later.
        let version = store.contest_version(contest).await?;
        if let Some(inputs) = self.current(contest, &version) {
            return Ok(inputs);
        }
        let _reading = self.reading.lock().await;
        // Another request may have read it while this one waited.
        let version = store.contest_version(contest).await?;
        if let Some(inputs) = self.current(contest, &version) {
            return Ok(inputs);
        }
        let inputs = Inputs {
            teams: store.contest_teams(contest).await?.into(),
            attempts: store.contest_attempts(contest.id).await?.into(),
        };
        self.lock().insert(
            contest.id,
            Kept {
                open_to_all: contest.open_to_all,
                version,
                inputs: inputs.clone(),
            },
        );
        Ok(inputs)
    }

    /// The kept inputs of `contest`, if they are of `version`.
    fn current(&self, contest: &Contest, version: &ContestVersion) -> Option<Inputs> {
        self.lock()
            .get(&contest.id)
            .filter(|k| k.version == *version && k.open_to_all == contest.open_to_all)
            .map(|k| k.inputs.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Kept>> {
        // A panic while holding it leaves a map that is still whole.
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
