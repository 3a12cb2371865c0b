//! Transcripts of interactive samples: what the submission and the
//! interactor wrote to each other, in the order the judge passed it on,
//! capped.

use std::io::{PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// Who wrote a part of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The submission, to the interactor.
    Submission,
    /// The interactor, to the submission.
    Interactor,
}

/// One side's bytes, in a row (lossy UTF-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub from: Side,
    pub text: String,
}

/// Both directions of one interaction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub parts: Vec<Said>,
    /// Whether more was said than the cap kept.
    pub truncated: bool,
}

/// How much of an interaction a transcript keeps, both directions
/// together.
pub const CAP_BYTES: usize = 64 * 1024;

/// Collects what passes through the relays, up to the cap.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    inner: Mutex<Recorded>,
}

/// The parts so far (each side's bytes in a row), their total length, and
/// whether anything was cut.
type Recorded = (Vec<(Side, Vec<u8>)>, usize, bool);

impl Recorder {
    fn add(&self, side: Side, bytes: &[u8]) {
        // A relay that panicked cannot leave the parts half-written (each
        // change below is one push or extend), so a poisoned lock is used as is.
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (parts, total, truncated) = &mut *guard;
        let room = CAP_BYTES - *total;
        let kept = &bytes[..bytes.len().min(room)];
        if kept.len() < bytes.len() {
            *truncated = true;
        }
        if kept.is_empty() {
            return;
        }
        *total += kept.len();
        match parts.last_mut() {
            Some((last, text)) if *last == side => text.extend_from_slice(kept),
            _ => parts.push((side, kept.to_vec())),
        }
    }

    /// The transcript (lossy UTF-8).
    pub(super) fn finish(self) -> Transcript {
        let (parts, _, truncated) = self.inner.into_inner().unwrap_or_else(|p| p.into_inner());
        Transcript {
            parts: parts
                .into_iter()
                .map(|(from, bytes)| Said {
                    from,
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                })
                .collect(),
            truncated,
        }
    }
}

/// Passes bytes from one program to the other, recording them, like the
/// pipe it stands in for: it ends at the writer's end of file (closing
/// its own write end, so the reader sees the end too) or when the reader
/// has gone (closing its read end, so the writer sees a broken pipe).
/// Once `stop` is set (both programs are over) it passes on what is left
/// and ends, so it never outlives the test. Returns when it saw the
/// writer's end of file (`None`: it ended for another reason), which tells
/// the judge which program was over first.
pub(super) fn relay(
    mut from: PipeReader,
    mut to: PipeWriter,
    side: Side,
    recorder: &Recorder,
    stop: &AtomicBool,
) -> Option<Instant> {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let stopping = stop.load(Ordering::Acquire);
        let mut pfd = libc::pollfd {
            fd: from.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut pfd, 1, if stopping { 0 } else { 50 }) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if ready == 0 {
            if stopping {
                return None;
            }
            continue;
        }
        match from.read(&mut buf) {
            Ok(0) => return Some(Instant::now()),
            Ok(n) => {
                recorder.add(side, &buf[..n]);
                if to.write_all(&buf[..n]).is_err() {
                    return None;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorder_merges_runs_of_one_side_and_cuts_at_the_cap() {
        let r = Recorder::default();
        r.add(Side::Submission, b"1 ");
        r.add(Side::Submission, b"2\n");
        r.add(Side::Interactor, b"ok\n");
        let t = Recorder::default();
        t.add(Side::Interactor, &vec![b'x'; CAP_BYTES - 1]);
        t.add(Side::Submission, b"yz");
        let (r, t) = (r.finish(), t.finish());
        assert_eq!(r.parts.len(), 2);
        assert_eq!(r.parts[0].text, "1 2\n");
        assert!(!r.truncated);
        assert_eq!(t.parts[1].text, "y");
        assert!(t.truncated);
    }

    #[test]
    fn a_relay_passes_everything_on_and_ends_at_the_end_of_file() {
        let (from_r, mut from_w) = std::io::pipe().unwrap();
        let (mut to_r, to_w) = std::io::pipe().unwrap();
        let recorder = Recorder::default();
        let stop = AtomicBool::new(false);
        let mut got = Vec::new();
        std::thread::scope(|s| {
            s.spawn(|| relay(from_r, to_w, Side::Submission, &recorder, &stop));
            from_w.write_all(&vec![b'a'; 100_000]).unwrap();
            drop(from_w);
            to_r.read_to_end(&mut got).unwrap();
        });
        assert_eq!(got.len(), 100_000);
        let t = recorder.finish();
        assert!(t.truncated);
        assert_eq!(t.parts[0].text.len(), CAP_BYTES);
    }
}
