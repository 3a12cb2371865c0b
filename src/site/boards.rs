//! The scoreboard's inputs per contest, kept between requests: many
//! viewers polling a board (a contest's every team, the public, the
//! Contest API's clients) cost one cheap version read each, and one read
//! of the whole history per change rather than per request. A team's
//! board is computed from them per request (each team sees its own tries
//! through the freeze); the board admins see and the one the public sees
//! are the same for every such viewer, and are kept with the inputs they
//! were computed from, for the contest's settings and freeze of the time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::contest::scoreboard::scoreboard;
use crate::contest::{Attempt, Board, Contest, Team, Viewer};
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
    /// Boards computed from these inputs, by the contest's settings, the
    /// viewer (admin or public) and the freeze's time for them.
    boards: Vec<(Contest, Viewer, Option<i64>, Board)>,
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
        Ok(self.read(store, contest).await?.1)
    }

    /// The board of `contest` at `now` for `viewer`, from its inputs now.
    ///
    /// # Errors
    /// Database failures.
    pub async fn board(
        &self,
        store: &Store,
        contest: &Contest,
        viewer: Viewer,
        now: i64,
    ) -> Result<Board, store::Error> {
        let (version, inputs) = self.read(store, contest).await?;
        let shared = matches!(viewer, Viewer::Admin | Viewer::Public);
        if !shared {
            return Ok(scoreboard(
                contest,
                &inputs.teams,
                &inputs.attempts,
                viewer,
                now,
            ));
        }
        let hidden = contest.hidden_from(viewer, now);
        let found = self
            .lock()
            .get(&contest.id)
            .filter(|k| k.version == version)
            .and_then(|k| {
                k.boards
                    .iter()
                    .find(|b| b.0 == *contest && b.1 == viewer && b.2 == hidden)
                    .map(|b| b.3.clone())
            });
        if let Some(board) = found {
            return Ok(board);
        }
        let board = scoreboard(contest, &inputs.teams, &inputs.attempts, viewer, now);
        if let Some(k) = self
            .lock()
            .get_mut(&contest.id)
            .filter(|k| k.version == version)
        {
            // A few: admins' and the public's, around a freeze or a change
            // of settings.
            if k.boards.len() >= 4 {
                k.boards.remove(0);
            }
            k.boards
                .push((contest.clone(), viewer, hidden, board.clone()));
        }
        Ok(board)
    }

    /// The inputs and the version they are of.
    async fn read(
        &self,
        store: &Store,
        contest: &Contest,
    ) -> Result<(ContestVersion, Inputs), store::Error> {
        // The version first: what is read after it is at least as new, so
        // a change between the two reads only costs one more read later.
        let version = store.contest_version(contest).await?;
        if let Some(inputs) = self.current(contest, &version) {
            return Ok((version, inputs));
        }
        let _reading = self.reading.lock().await;
        // Another request may have read it while this one waited.
        let version = store.contest_version(contest).await?;
        if let Some(inputs) = self.current(contest, &version) {
            return Ok((version, inputs));
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
                boards: Vec::new(),
            },
        );
        Ok((version, inputs))
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
