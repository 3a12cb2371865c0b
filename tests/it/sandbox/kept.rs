//! Issue 20: a box kept across runs of the same mounts (a submission's
//! tests) is emptied between them. Each test first makes the box kept (a
//! run whose mounts repeat a recent run's keeps its box), proves the later
//! run used that same box (its PID namespace counts on: a later process
//! has a higher pid), and checks that nothing of the earlier run reached
//! it, measurements included.

use std::time::Duration;

use grundy::sandbox::{Bind, Limits, Measurement, Runner, Termination};

use super::{
    assert_no_leftovers, boxed, boxed_with_tiers, limits, marker, run_bound, Fixture, Ran,
    NAME_SELF,
};

/// Runs `fixture` with its directory at `/box/prog`, as the judge shows a
/// submission's (a path outside `/tmp`, so its box can be kept).
fn run_kept(runner: &dyn Runner, fixture: &Fixture, args: &[&str], limits: Limits) -> Ran {
    let bind = Bind::read_only(fixture.path()).at("/box/prog");
    run_bound(runner, fixture, bind, args, limits)
}

/// The pid a fixture printed first (`pid N ...`).
fn pid(ran: &Ran) -> u32 {
    ran.stdout
        .strip_prefix("pid ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {:?} ({})", ran.stdout, ran.stderr))
}

/// Runs `first` until its box is kept and `then` runs in that same box,
/// and returns both; a machine too loaded to clean a box within its
/// deadline gets a few tries.
fn in_one_box(runner: &dyn Runner, fx: &Fixture, first: &[&str], then: &[&str]) -> (Ran, Ran) {
    for _ in 0..3 {
        // The first run is fresh; its mounts are new, so its box is not
        // kept. The second repeats them and keeps its box for the third.
        for _ in 0..2 {
            run_kept(runner, fx, &["pid"], limits()).assert_exited_ok();
        }
        let a = run_kept(runner, fx, first, limits());
        a.assert_exited_ok();
        let b = run_kept(runner, fx, then, limits());
        b.assert_exited_ok();
        if pid(&b) > pid(&a) {
            return (a, b);
        }
    }
    panic!("the box was never kept for the next run");
}

const LEAVE_AND_LOOK: &str = r#"
#include <dirent.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
static int abstract(int listening) {
    struct sockaddr_un a = {0};
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path, "\0grundy-left", 12);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    socklen_t len = sizeof(sa_family_t) + 12;
    if (listening) return bind(s, (struct sockaddr *)&a, len) == 0 && listen(s, 1) == 0;
    return connect(s, (struct sockaddr *)&a, len) == 0;
}
int main(int argc, char **argv) {
    printf("pid %d ", getpid());
    if (strcmp(argv[1], "leave") == 0) {
        int made = 0;
        FILE *f = fopen("/tmp/left", "w"); if (f) { fputs("x", f); fclose(f); made++; }
        f = fopen("left", "w"); if (f) { fputs("x", f); fclose(f); made++; }
        printf("files %d shm %d ", made, shmget(4242, 4096, IPC_CREAT | 0666) >= 0);
        printf("sem %d msg %d ", semget(4243, 1, IPC_CREAT | 0666) >= 0,
               msgget(4244, IPC_CREAT | 0666) >= 0);
        /* Where RLIMIT_MSGQUEUE allows one. */
        mq_open("/grundy-left", O_CREAT | O_RDWR, 0666, NULL);
        int ready[2]; pipe(ready);
        if (fork() == 0) {
            setsid(); name_self(argv[2]);
            char ok = abstract(1) ? '1' : '0';
            write(ready[1], &ok, 1);
            for (;;) pause();
        }
        char ok = '0'; read(ready[0], &ok, 1);
        printf("sock %c\n", ok);
        return 0;
    }
    if (strcmp(argv[1], "look") == 0) {
        int procs = 0; DIR *d = opendir("/proc"); struct dirent *e;
        while (d && (e = readdir(d))) if (e->d_name[0] >= '0' && e->d_name[0] <= '9') procs++;
        printf("tmp %d cwd %d shm %d sem %d msg %d mq %d sock %d procs %d\n",
               access("/tmp/left", F_OK) == 0, access("left", F_OK) == 0,
               shmget(4242, 4096, 0) >= 0, semget(4243, 1, 0) >= 0, msgget(4244, 0) >= 0,
               mq_open("/grundy-left", O_RDONLY) >= 0, abstract(0), procs);
        return 0;
    }
    puts("");
    return 0;
}"#;

#[test]
fn nothing_of_a_run_reaches_the_next_in_a_kept_box() {
    let Some((sb, tiers)) = boxed_with_tiers() else {
        return;
    };
    let fx = Fixture::c(&format!("{NAME_SELF}{LEAVE_AND_LOOK}"));
    let m = marker("kept");
    let (left, looked) = in_one_box(sb.as_ref(), &fx, &["leave", &m], &["look"]);
    // What the first run made, it made: the check below means something.
    let shm = if tiers.measurement == Measurement::Rusage {
        // Without a cgroup a System V segment cannot be made at all.
        0
    } else {
        1
    };
    assert!(
        left.stdout
            .ends_with(&format!("files 2 shm {shm} sem 1 msg 1 sock 1\n")),
        "{} {}",
        left.stdout,
        left.stderr
    );
    assert!(
        looked
            .stdout
            .ends_with("tmp 0 cwd 0 shm 0 sem 0 msg 0 mq 0 sock 0 procs 2\n"),
        "the kept box passed on a run's leftovers: {}",
        looked.stdout
    );
    assert_no_leftovers(&m);
}

#[test]
fn a_kept_box_measures_each_run_alone() {
    let Some(sb) = boxed() else { return };
    let fx = Fixture::c(
        r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    printf("pid %d\n", getpid());
    if (strcmp(argv[1], "big") == 0) {
        size_t n = 96u << 20;
        /* volatile: the compiler may not drop the allocation. */
        char *volatile p = malloc(n);
        memset(p, 1, n);
        volatile unsigned long x = p[n / 2];
        while (clock() < CLOCKS_PER_SEC / 2) x += x * 7 + 1;
        return (int)(x & 0);
    }
    return 0;
}"#,
    );
    let (big, small) = in_one_box(sb.as_ref(), &fx, &["big"], &["small"]);
    assert!(big.outcome.memory_kib > 90 << 10, "{:?}", big.outcome);
    assert!(big.outcome.cpu_ms >= 400, "{:?}", big.outcome);
    assert!(
        small.outcome.memory_kib < 32 << 10,
        "the earlier run's memory was counted again: {:?}",
        small.outcome
    );
    assert!(
        small.outcome.cpu_ms < 200,
        "the earlier run's CPU time was counted again: {:?}",
        small.outcome
    );
}

#[test]
fn a_box_stopped_at_a_limit_is_not_kept() {
    let Some(sb) = boxed() else { return };
    let fx = Fixture::c(
        r#"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    printf("pid %d\n", getpid());
    fflush(stdout);
    if (strcmp(argv[1], "spin") == 0) for (volatile int i = 0;; i++) {}
    return 0;
}"#,
    );
    let fresh = run_kept(sb.as_ref(), &fx, &["once"], limits());
    fresh.assert_exited_ok();
    let tight = Limits::new(Duration::from_millis(200), 256 << 20)
        .wall(Duration::from_secs(2))
        .processes(32);
    let (_, spun) = in_one_box(sb.as_ref(), &fx, &["pid"], &["pid"]);
    let _ = spun;
    let stopped = run_kept(sb.as_ref(), &fx, &["spin"], tight);
    assert_eq!(stopped.outcome.termination, Termination::CpuTimeout);
    let after = run_kept(sb.as_ref(), &fx, &["once"], limits());
    after.assert_exited_ok();
    assert_eq!(
        pid(&after),
        pid(&fresh),
        "the run after a stopped one did not get a fresh box"
    );
}

#[test]
fn a_kept_box_is_not_used_once_its_files_change() {
    let Some(sb) = boxed() else { return };
    let fx = Fixture::c(
        r#"
#include <stdio.h>
int main(void) {
    char line[64] = "";
    FILE *f = fopen("/box/prog/data", "r");
    if (f) { fgets(line, sizeof line, f); fclose(f); }
    printf("pid %d %s\n", getpid(), line);
    return 0;
}"#,
    );
    std::fs::write(fx.path().join("data"), "old").unwrap();
    let (_, kept) = in_one_box(sb.as_ref(), &fx, &[], &[]);
    assert!(kept.stdout.ends_with(" old\n"), "{}", kept.stdout);
    // Replaced by another file, as a rebuilt program would be.
    std::fs::write(fx.path().join("data.new"), "new").unwrap();
    std::fs::rename(fx.path().join("data.new"), fx.path().join("data")).unwrap();
    let after = run_kept(sb.as_ref(), &fx, &[], limits());
    after.assert_exited_ok();
    assert!(after.stdout.ends_with(" new\n"), "{}", after.stdout);
}

#[test]
fn a_run_cannot_slow_the_next_runs_of_its_box() {
    let Some(sb) = boxed() else { return };
    let fx = Fixture::c(
        r#"
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
int main(int argc, char **argv) {
    printf("pid %d ", getpid());
    if (argc > 1 && strcmp(argv[1], "lower") == 0) {
        /* Init outlives the run in a kept box, and the next run's process
           is forked from it: lower its priority, and its user's. */
        struct sched_param p = {0};
        int denied = 0;
        denied += setpriority(PRIO_PROCESS, 1, 19) != 0 && errno == EPERM;
        denied += setpriority(PRIO_USER, 0, 19) != 0 && errno == EPERM;
        denied += sched_setscheduler(1, SCHED_IDLE, &p) != 0 && errno == EPERM;
        /* Its own are its own to lower. */
        int own = setpriority(PRIO_PROCESS, 0, 5) == 0;
        printf("denied %d own %d\n", denied, own);
        return 0;
    }
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, 0);
    printf("nice %d policy %d\n", nice, sched_getscheduler(0));
    return 0;
}"#,
    );
    let (lowered, next) = in_one_box(sb.as_ref(), &fx, &["lower"], &["look"]);
    assert!(
        lowered.stdout.ends_with("denied 3 own 1\n"),
        "{}",
        lowered.stdout
    );
    assert!(
        next.stdout
            .ends_with(&format!("nice 0 policy {}\n", libc::SCHED_OTHER)),
        "a run changed the next run's scheduling: {}",
        next.stdout
    );
}
