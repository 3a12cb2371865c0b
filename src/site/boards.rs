//! The scoreboard's inputs per contest, kept between requests and brought
//! up to date by what changed: many viewers polling a board (a contest's
//! every team, the public, the Contest API's clients) cost one cheap
//! version read each; a change of the contest's record costs a read of
//! the tries it names ([`Store::contest_tries_changed`]), not of the whole
//! history, unless something other than tries changed (a team, the
//! settings), which reads everything again.
//!
//! The board admins see and the one the public sees are the same for
//! every such viewer. Each is kept as a [`KeptBoard`], brought up with
//! the tries that changed (a change costs its own cells and rows, not a
//! board computed whole), and read out once per version, for the
//! contest's settings and freeze of the time, with what each reader
//! renders of it ([`Shown`]): one rendering per change, not per request.
//! A team sees the public's board unless the freeze hides others' results
//! from it; then its board is its own (it sees its own tries), computed
//! per request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::contest::scoreboard::{scoreboard, KeptBoard, Row};
use crate::contest::{Attempt, Board, Contest, Scoring, Team, Viewer};
use crate::store::{self, ContestVersion, Store};

/// A contest's participants and tries as last read.
#[derive(Clone)]
struct Inputs {
    teams: Arc<[Team]>,
    /// By id.
    attempts: Arc<Vec<Attempt>>,
    /// Each account's organization's name, where it has one.
    organizations: Arc<HashMap<i64, String>>,
}

/// A board and what its readers make of it, made once for every reader
/// of the same board.
pub struct Shown {
    pub board: Board,
    /// Whose board it is (a team reading the public's board reads the
    /// public's).
    pub viewer: Viewer,
    /// Each team's organization's name, where it has one.
    pub organizations: Arc<HashMap<i64, String>>,
    /// The Contest API's rows (JSON), without problem cells and with them.
    pub clics_rows: [tokio::sync::OnceCell<String>; 2],
    /// The page's board (HTML) and its digest.
    pub page: OnceLock<(String, String)>,
}

impl Shown {
    fn new(board: Board, viewer: Viewer, organizations: Arc<HashMap<i64, String>>) -> Shown {
        Shown {
            board,
            viewer,
            organizations,
            clics_rows: [
                tokio::sync::OnceCell::const_new(),
                tokio::sync::OnceCell::const_new(),
            ],
            page: OnceLock::new(),
        }
    }

    /// Whether this board is shared by every reader of its kind (an
    /// admin's, the public's), so that what is made of it may be kept.
    fn shared(viewer: Viewer) -> bool {
        matches!(viewer, Viewer::Admin | Viewer::Public)
    }
}

struct Kept {
    /// The contest's settings that choose its teams.
    open_to_all: bool,
    version: ContestVersion,
    inputs: Inputs,
    /// The admins' and the public's boards over these inputs, brought up
    /// try by try with them.
    kept: Vec<KeptBoard>,
    /// Boards shown from these inputs, by the contest's settings, the
    /// viewer (admin or public) and the freeze's time for them.
    boards: Vec<(Contest, Viewer, Option<i64>, Arc<Shown>)>,
}

/// The kept inputs, by contest id (one store per state, so one database).
#[derive(Default)]
pub struct Boards {
    kept: Mutex<HashMap<i64, Kept>>,
    /// Held while reading a history again: the requests that find the
    /// same change wait for that one read instead of each making its own.
    reading: tokio::sync::Mutex<()>,
    /// What a page made of each row of the boards shared by their readers,
    /// by contest and viewer, then team ([`Boards::rows_made`]).
    rows: Mutex<HashMap<(i64, Viewer), HashMap<i64, RowMade>>>,
}

/// A row, and what was made of it.
struct RowMade {
    scoring: Scoring,
    row: Row,
    organization: Option<String>,
    made: Arc<str>,
}

impl Boards {
    /// The board of `contest` at `now` for `viewer`, from its inputs now,
    /// with what is made of it.
    ///
    /// # Errors
    /// Database failures.
    pub async fn board(
        &self,
        store: &Store,
        contest: &Contest,
        viewer: Viewer,
        now: i64,
    ) -> Result<Arc<Shown>, store::Error> {
        let (version, inputs) = self.read(store, contest).await?;
        // A team sees the public's board while the freeze hides nothing
        // from it (its own row is marked by whoever shows it).
        let viewer = match viewer {
            Viewer::Team(_) if contest.hidden_from(viewer, now).is_none() => Viewer::Public,
            _ => viewer,
        };
        let computed = || {
            Arc::new(Shown::new(
                scoreboard(contest, &inputs.teams, &inputs.attempts, viewer, now),
                viewer,
                inputs.organizations.clone(),
            ))
        };
        if !Shown::shared(viewer) {
            return Ok(computed());
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
        if let Some(shown) = found {
            return Ok(shown);
        }
        let mut kept = self.lock();
        let Some(k) = kept.get_mut(&contest.id).filter(|k| k.version == version) else {
            drop(kept);
            return Ok(computed());
        };
        // The kept board of these inputs, read out: a change of the
        // record cost it the tries that changed, not a board computed
        // whole.
        let board = KeptBoard::read_kept(
            &mut k.kept,
            contest,
            &inputs.teams,
            &inputs.attempts,
            viewer,
            now,
        );
        let shown = Arc::new(Shown::new(board, viewer, inputs.organizations.clone()));
        // A few: admins' and the public's, around a freeze or a change of
        // settings.
        if k.boards.len() >= 4 {
            k.boards.remove(0);
        }
        k.boards
            .push((contest.clone(), viewer, hidden, shown.clone()));
        Ok(shown)
    }

    /// What `make` makes of each row of `shown`, in order, made again
    /// only for the rows that changed since the last time (a change moves
    /// a few rows, not the board) where the board is shared by its
    /// readers; every row otherwise.
    ///
    /// # Errors
    /// `make`'s.
    pub fn rows_made<E>(
        &self,
        contest: &Contest,
        shown: &Shown,
        mut make: impl FnMut(&Row, Option<&String>) -> Result<String, E>,
    ) -> Result<Vec<Arc<str>>, E> {
        let rows = &shown.board.rows;
        if !Shown::shared(shown.viewer) {
            return rows
                .iter()
                .map(|r| Ok(make(r, shown.organizations.get(&r.team.id))?.into()))
                .collect();
        }
        let mut all = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        let known = all.entry((contest.id, shown.viewer)).or_default();
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let organization = shown.organizations.get(&r.team.id);
            let same = |m: &&RowMade| {
                m.scoring == contest.scoring
                    && m.row == *r
                    && m.organization.as_ref() == organization
            };
            if let Some(m) = known.get(&r.team.id).filter(same) {
                out.push(m.made.clone());
                continue;
            }
            let made: Arc<str> = make(r, organization)?.into();
            known.insert(
                r.team.id,
                RowMade {
                    scoring: contest.scoring,
                    row: r.clone(),
                    organization: organization.cloned(),
                    made: made.clone(),
                },
            );
            out.push(made);
        }
        Ok(out)
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
        let before = self
            .lock()
            .remove(&contest.id)
            .filter(|k| k.open_to_all == contest.open_to_all && k.version < version);
        let (inputs, kept) = match before {
            Some(k) => match Self::brought_up(store, contest, k).await? {
                Some(brought) => brought,
                None => (Self::read_all(store, contest).await?, Vec::new()),
            },
            None => (Self::read_all(store, contest).await?, Vec::new()),
        };
        self.lock().insert(
            contest.id,
            Kept {
                open_to_all: contest.open_to_all,
                version,
                inputs: inputs.clone(),
                kept,
                boards: Vec::new(),
            },
        );
        Ok((version, inputs))
    }

    /// Everything `contest`'s boards are computed from, read whole.
    async fn read_all(store: &Store, contest: &Contest) -> Result<Inputs, store::Error> {
        Ok(Inputs {
            teams: store.contest_teams(contest).await?.into(),
            attempts: Arc::new(store.contest_attempts(contest.id).await?),
            organizations: Arc::new(store.organization_names().await?),
        })
    }

    /// `kept`'s inputs with the tries changed since its version read
    /// again, and its boards brought up with them; `None` when more than
    /// tries changed (or a try of a team the inputs do not hold), for the
    /// caller to read everything again.
    async fn brought_up(
        store: &Store,
        contest: &Contest,
        kept: Kept,
    ) -> Result<Option<(Inputs, Vec<KeptBoard>)>, store::Error> {
        let Some(ids) = store
            .contest_tries_changed(contest.id, kept.version)
            .await?
        else {
            return Ok(None);
        };
        let fresh = store.contest_attempts_of(contest.id, &ids).await?;
        let mut inputs = kept.inputs;
        if fresh
            .iter()
            .any(|a| !inputs.teams.iter().any(|t| t.id == a.team))
        {
            return Ok(None);
        }
        let mut boards = kept.kept;
        for b in &mut boards {
            b.change(&ids, &fresh);
        }
        store::standing::bring_up(Arc::make_mut(&mut inputs.attempts), &ids, fresh);
        Ok(Some((inputs, boards)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::scoreboard::tests::{contest, tried, START};
    use crate::verdict::Verdict;

    /// What `boards` makes of `shown`'s rows, with the teams whose rows
    /// it made again (in the order asked).
    fn made(boards: &Boards, c: &Contest, shown: &Shown) -> (Vec<String>, Vec<Arc<str>>) {
        let mut asked = Vec::new();
        let rows = boards
            .rows_made(c, shown, |r, organization| {
                asked.push(r.team.name.clone());
                Ok::<_, ()>(format!("{} {} {organization:?}", r.team.name, r.rank))
            })
            .expect("made");
        (asked, rows)
    }

    #[test]
    fn a_shared_board_makes_again_only_the_rows_that_changed() {
        let c = contest(Scoring::Icpc);
        let teams = vec![Team::new(1, "ana"), Team::new(2, "bo"), Team::new(3, "cy")];
        let mut tries = vec![tried(1, 1, "nim", 10, Verdict::AC)];
        let now = START + 3_600_000;
        let shown = |tries: &[Attempt], viewer: Viewer, orgs: HashMap<i64, String>| {
            Shown::new(
                scoreboard(&c, &teams, tries, viewer, now),
                viewer,
                Arc::new(orgs),
            )
        };
        let public = |tries: &[Attempt]| shown(tries, Viewer::Public, HashMap::new());
        let boards = Boards::default();
        let (asked, first) = made(&boards, &c, &public(&tries));
        assert_eq!(asked, ["ana", "bo", "cy"]);
        assert_eq!(&*first[0], "ana 1 None");

        // Nothing changed: nothing is made.
        let (asked, again) = made(&boards, &c, &public(&tries));
        assert!(asked.is_empty(), "made again: {asked:?}");
        assert_eq!(again, first);

        // cy solves one: its row moves up, bo's rank changes, ana's stays.
        tries.push(tried(2, 3, "kayles", 50, Verdict::AC));
        let (mut asked, moved) = made(&boards, &c, &public(&tries));
        asked.sort();
        assert_eq!(asked, ["bo", "cy"]);
        assert_eq!(&*moved[1], "cy 2 None");

        // A team's organization is part of its row.
        let orgs = HashMap::from([(2, "Uni".to_string())]);
        let (asked, _) = made(&boards, &c, &shown(&tries, Viewer::Public, orgs));
        assert_eq!(asked, ["bo"]);

        // The admins' board is kept apart, and a team's own board is made
        // whole every time.
        let (asked, _) = made(&boards, &c, &shown(&tries, Viewer::Admin, HashMap::new()));
        assert_eq!(asked.len(), 3);
        for _ in 0..2 {
            let (asked, _) = made(&boards, &c, &shown(&tries, Viewer::Team(1), HashMap::new()));
            assert_eq!(asked.len(), 3);
        }
    }
}
