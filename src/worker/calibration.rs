//! A worker process's speed as its runs meet it (see `docs/timing.md`):
//! measured before its workers claim anything, with a copy of the
//! calibration program in each of its slots (they are all busy while it
//! judges), and measured again on a [`Schedule`]: after an interval, or
//! sooner when the machine's other load changes. A calibration after the
//! first takes every slot ([`WorkerTiming::all_slots`]): it waits for the
//! judgings under way and holds new claims back while it runs, so its
//! copies fill the slots and nothing judged meets them. Each calibration
//! is recorded for the admins and the other workers, and the next claim
//! is scaled by it.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;

use super::{Busy, Pool, WorkerTiming};
use crate::judge::{Recalibration, Schedule};

/// How often the schedule is looked at: the period of the kernel's load
/// average.
const CHECK: Duration = Duration::from_secs(5);

/// How many copies a calibration runs at once: one per worker slot, no
/// more than the sandbox runs at once (the runs of more workers queue for
/// the sandbox's slots, as judged runs do).
pub fn copies(pool: &Pool, workers: usize) -> usize {
    workers.clamp(1, pool.env.ctx.slots().max(1))
}

/// Measures this machine's speed with `copies` runs at once, records it
/// and keeps it for this process's workers. A failure is logged and
/// changes nothing: before the first success the workers judge with
/// factor 1, after it with the last figure.
pub async fn measure(pool: &Pool, copies: usize, why: Option<Recalibration>) {
    let runs = pool.env.ctx.config.timing.calibration_runs;
    let judge = pool.env.ctx.judge();
    let measured = match tokio::task::spawn_blocking(move || judge.calibrate(runs, copies)).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            tracing::warn!(error = %crate::errors::chain(&e), ?why, "calibration failed; the factor stays as it was");
            return;
        }
        Err(e) => {
            tracing::warn!(error = %e, ?why, "calibration panicked; the factor stays as it was");
            return;
        }
    };
    tracing::info!(
        median_ms = measured.median_ms,
        runs_ms = ?measured.runs_ms,
        copies,
        ?why,
        "calibrated this worker's speed with every slot busy"
    );
    let name = &pool.env.timing.name;
    if let Err(e) = pool.store.record_calibration(name, &measured).await {
        tracing::warn!(error = %crate::errors::chain(&e), "could not record the calibration");
    }
    pool.env.timing.set_calibration(measured);
}

/// Calibrates `pool`'s workers again on the schedule `[timing]` sets
/// until the workers are told to stop (nothing when calibration or its
/// repetition is off).
pub async fn keep(pool: Pool, workers: usize) {
    let timing = &pool.env.ctx.config.timing;
    if timing.calibration_runs == 0 {
        return;
    }
    let schedule = Schedule::every(Duration::from_secs(timing.recalibrate_seconds));
    let copies = copies(&pool, workers);
    let mut load = OtherLoad::new(pool.env.busy.clone());
    let stop = pool.stop.clone();
    let worker = pool.env.timing.clone();
    run(
        &worker,
        schedule,
        // A short interval (a test's) is looked at as often.
        CHECK.min(schedule.every),
        move || load.sample(),
        |why| {
            let pool = pool.clone();
            async move { measure(&pool, copies, Some(why)).await }
        },
        stop,
    )
    .await;
}

/// The schedule's loop: every `check`, reads the machine's other load and
/// asks `schedule` whether to calibrate; when it is due, takes every slot
/// of `timing` and `measure`s. Ends when `stop` turns true.
pub async fn run<L, M, F>(
    timing: &WorkerTiming,
    schedule: Schedule,
    check: Duration,
    mut load: L,
    mut measure: M,
    mut stop: watch::Receiver<bool>,
) where
    L: FnMut() -> f64 + Send,
    M: FnMut(Recalibration) -> F + Send,
    F: Future<Output = ()> + Send,
{
    if schedule.every.is_zero() {
        return;
    }
    let mut last = tokio::time::Instant::now();
    let mut load_then = load();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(check) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        let load_now = load();
        let Some(why) = schedule.due(last.elapsed(), load_then, load_now) else {
            continue;
        };
        tracing::info!(
            ?why,
            load_then,
            load_now,
            "calibrating again: waiting for every slot"
        );
        let all = tokio::select! {
            all = timing.all_slots() => all,
            _ = stop.wait_for(|s| *s) => return,
        };
        measure(why).await;
        drop(all);
        last = tokio::time::Instant::now();
        load_then = load_now;
    }
}

/// The machine's runnable work beside this process's own runs: the
/// kernel's one-minute load average less this process's busy slots,
/// averaged over the same minute (so the process's own work coming and
/// going is not taken for a neighbour's).
struct OtherLoad {
    busy: Busy,
    /// This process's busy slots, averaged as the kernel averages load.
    own: f64,
}

impl OtherLoad {
    fn new(busy: Busy) -> OtherLoad {
        OtherLoad { busy, own: 0.0 }
    }

    fn sample(&mut self) -> f64 {
        let busy = self.busy.lock().unwrap_or_else(|p| p.into_inner()).len() as f64;
        self.own = average(self.own, busy, CHECK);
        let all = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
            .unwrap_or(0.0);
        (all - self.own).max(0.0)
    }
}

/// The kernel's one-minute load average's step: `old` moved toward `now`
/// after `elapsed`.
fn average(old: f64, now: f64, elapsed: Duration) -> f64 {
    let decay = (-elapsed.as_secs_f64() / 60.0).exp();
    old * decay + now * (1.0 - decay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Runs the schedule's loop with `load` read from a shared cell until
    /// `whys` holds `want` calibrations (bounded), and returns them with
    /// whether each found every slot taken.
    fn calibrations(
        schedule: Schedule,
        load: Arc<Mutex<f64>>,
        want: usize,
    ) -> Vec<(Recalibration, bool)> {
        let rt = runtime();
        let timing = Arc::new(WorkerTiming::named("w"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = watch::channel(false);
        let looping = {
            let (timing, seen) = (timing.clone(), seen.clone());
            let measure_timing = timing.clone();
            rt.spawn(async move {
                run(
                    &timing,
                    schedule,
                    Duration::from_millis(5),
                    move || *load.lock().unwrap(),
                    move |why| {
                        let (timing, seen) = (measure_timing.clone(), seen.clone());
                        async move {
                            seen.lock().unwrap().push((why, timing.calibrating()));
                        }
                    },
                    rx,
                )
                .await;
            })
        };
        for _ in 0..2000 {
            if seen.lock().unwrap().len() >= want {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        tx.send(true).unwrap();
        rt.block_on(looping).unwrap();
        let seen = seen.lock().unwrap().clone();
        seen
    }

    #[test]
    fn a_worker_calibrates_again_after_its_interval_with_every_slot_taken() {
        let schedule = Schedule {
            every: Duration::from_millis(20),
            load_step: 1.0,
            load_gap: Duration::from_secs(3600),
        };
        let seen = calibrations(schedule, Arc::new(Mutex::new(0.0)), 2);
        assert!(seen.len() >= 2, "{seen:?}");
        assert!(
            seen.iter()
                .all(|(why, held)| *why == Recalibration::Interval && *held),
            "{seen:?}"
        );
    }

    #[test]
    fn a_change_of_load_calibrates_before_the_interval() {
        let schedule = Schedule {
            every: Duration::from_secs(3600),
            load_step: 1.0,
            load_gap: Duration::ZERO,
        };
        let load = Arc::new(Mutex::new(0.0));
        let rt = runtime();
        let changer = {
            let load = load.clone();
            rt.spawn(async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                *load.lock().unwrap() = 2.0;
            })
        };
        let seen = calibrations(schedule, load, 1);
        rt.block_on(changer).unwrap();
        assert_eq!(seen, vec![(Recalibration::Load, true)]);
    }

    #[test]
    fn a_calibration_waits_for_the_judgings_under_way() {
        let rt = runtime();
        let timing = Arc::new(WorkerTiming::named("w"));
        let measured = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = watch::channel(false);
        rt.block_on(async {
            let judging = timing.slot().await;
            let looping = {
                let (timing, measured) = (timing.clone(), measured.clone());
                tokio::spawn(async move {
                    run(
                        &timing,
                        Schedule::every(Duration::from_millis(1)),
                        Duration::from_millis(1),
                        || 0.0,
                        |_| {
                            measured.fetch_add(1, Ordering::SeqCst);
                            async {}
                        },
                        rx,
                    )
                    .await;
                })
            };
            // However long the judging holds its slot, no calibration
            // runs beside it.
            for _ in 0..20 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                assert_eq!(measured.load(Ordering::SeqCst), 0);
            }
            drop(judging);
            for _ in 0..2000 {
                if measured.load(Ordering::SeqCst) > 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            assert!(measured.load(Ordering::SeqCst) > 0);
            tx.send(true).unwrap();
            looping.await.unwrap();
        });
    }

    #[test]
    fn the_process_s_own_load_is_averaged_as_the_kernel_does() {
        assert_eq!(average(0.0, 0.0, CHECK), 0.0);
        let after_a_minute = (0..12).fold(0.0, |own, _| average(own, 2.0, CHECK));
        assert!((after_a_minute - 2.0 * (1.0 - (-1.0_f64).exp())).abs() < 1e-9);
    }
}
