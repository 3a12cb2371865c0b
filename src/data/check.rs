//! Checking recorded test data (`grundy gen --check`): the package's data
//! is regenerated in a scratch directory and each input and answer is
//! compared, by hash, with what the ready set recorded and with the files
//! it holds on disk.

use super::{Error, Index, Progress, TestData};
use crate::digest::sha256_file;
use crate::problem::Problem;

impl TestData {
    /// Regenerates the package's data from scratch in a scratch directory
    /// (compiled programs may come from the cache; no test does) and
    /// compares every input and answer with the hashes recorded in the
    /// ready set; the recorded files themselves are hashed too, so data
    /// altered on disk is found. The scratch data is removed afterwards.
    ///
    /// # Errors
    /// When nothing is recorded yet, or as [`TestData::build`].
    pub fn check(
        &self,
        problem: &Problem,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Vec<Mismatch>, Error> {
        let Some(recorded) = self.existing(problem)? else {
            return Err(Error::NotRecorded {
                slug: problem.slug.clone(),
            });
        };
        std::fs::create_dir_all(&self.root).map_err(|source| Error::Io {
            slug: problem.slug.clone(),
            path: self.root.clone(),
            source,
        })?;
        let scratch = tempfile::Builder::new()
            .prefix(".check-")
            .tempdir_in(&self.root)
            .map_err(|source| Error::Io {
                slug: problem.slug.clone(),
                path: self.root.clone(),
                source,
            })?;
        let fresh = TestData {
            root: scratch.path().to_path_buf(),
            ..self.clone()
        }
        .build(problem, progress)?;
        let mut mismatches = compare(&recorded.index, &fresh.index);
        for t in &recorded.index.tests {
            for (what, path, sha) in [
                ("input on disk", recorded.input(t), &t.input_sha256),
                ("answer on disk", recorded.answer(t), &t.answer_sha256),
            ] {
                let (found, _) = sha256_file(&path).map_err(|source| Error::Io {
                    slug: problem.slug.clone(),
                    path: path.clone(),
                    source,
                })?;
                if &found != sha {
                    mismatches.push(Mismatch {
                        test: t.name.clone(),
                        what,
                        recorded: sha.clone(),
                        regenerated: found,
                    });
                }
            }
        }
        Ok(mismatches)
    }
}

/// A test whose regenerated data differs from what was recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub test: String,
    /// `input` or `answer` (regenerated differs from the record), or
    /// `input on disk` / `answer on disk` (the stored file differs).
    pub what: &'static str,
    pub recorded: String,
    pub regenerated: String,
}

/// The differences between a recorded index and a regenerated one, test
/// by test (both follow the same plan, so they pair up by name).
pub fn compare(recorded: &Index, regenerated: &Index) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for r in &recorded.tests {
        let Some(g) = regenerated.tests.iter().find(|g| g.name == r.name) else {
            out.push(Mismatch {
                test: r.name.clone(),
                what: "input",
                recorded: r.input_sha256.clone(),
                regenerated: "(not regenerated)".into(),
            });
            continue;
        };
        for (what, a, b) in [
            ("input", &r.input_sha256, &g.input_sha256),
            ("answer", &r.answer_sha256, &g.answer_sha256),
        ] {
            if a != b {
                out.push(Mismatch {
                    test: r.name.clone(),
                    what,
                    recorded: a.clone(),
                    regenerated: b.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::TestRecord;
    use crate::problem::Group;

    fn record(name: &str, input: &str, answer: &str) -> TestRecord {
        TestRecord {
            name: name.into(),
            group: Group::secret(),
            origin: "gen n=1".into(),
            seed: None,
            input_sha256: input.into(),
            input_bytes: 1,
            answer_sha256: answer.into(),
            answer_bytes: 1,
            solver_ms: 0,
        }
    }

    fn index(tests: Vec<TestRecord>) -> Index {
        Index {
            slug: "p".into(),
            key: "k".into(),
            generator_sha256: None,
            validator_sha256: None,
            solution_sha256: String::new(),
            tests,
        }
    }

    #[test]
    fn identical_data_has_no_mismatch() {
        let a = index(vec![record("a", "1", "2"), record("b", "3", "4")]);
        assert!(compare(&a, &a.clone()).is_empty());
    }

    #[test]
    fn each_differing_file_is_named() {
        let recorded = index(vec![record("a", "1", "2"), record("b", "3", "4")]);
        let regenerated = index(vec![record("a", "1", "x"), record("b", "y", "z")]);
        let found: Vec<(String, &str)> = compare(&recorded, &regenerated)
            .into_iter()
            .map(|m| (m.test, m.what))
            .collect();
        assert_eq!(
            found,
            vec![
                ("a".to_string(), "answer"),
                ("b".to_string(), "input"),
                ("b".to_string(), "answer")
            ]
        );
    }

    #[test]
    fn a_test_missing_from_the_regeneration_is_a_mismatch() {
        let recorded = index(vec![record("a", "1", "2")]);
        let m = compare(&recorded, &index(vec![]));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].regenerated, "(not regenerated)");
    }
}
