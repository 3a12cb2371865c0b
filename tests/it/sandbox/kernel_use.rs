//! Issue 45, point 5: what a run uses where no process's rusage shows it
//! counts on every tier, the rusage one (an ordinary user's judge, no
//! cgroup) included: the CPU of children the kernel reaps by itself, page
//! tables, and the buffers of pipes and sockets. Each attack once fooled
//! the rusage tier into an accepted run; each must now end over its limit.
//! `.ci/run` runs these as root (a cgroup) and as uid 65534 (rusage).

use std::time::Duration;

use grundy::config::{Isolation, SandboxConfig};
use grundy::sandbox::{self, Limits, Measurement, Termination};

use super::{boxed_with_tiers, run, Fixture};

/// 150 children of 10 ms of CPU each (1.5 s), whose parent ignores
/// `SIGCHLD`: the kernel reaps them and gives their rusage to nobody.
#[test]
fn r45_cpu_of_children_the_kernel_reaps_counts() {
    let Some((sb, tiers)) = boxed_with_tiers() else {
        return;
    };
    if tiers.measurement == Measurement::Rusage {
        if let Some(line) = tiers
            .unbounded
            .iter()
            .find(|l| l.contains("reaps by itself"))
        {
            eprintln!(
                "SKIPPED: this kernel gives the rusage tier no task clock, and says so: {line}"
            );
            return;
        }
    }
    let fx = Fixture::c(
        r#"
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
int main(void) {
    signal(SIGCHLD, SIG_IGN);
    for (int made = 0; made < 150;) {
        pid_t p = fork();
        if (p == 0) {
            double start = cpu();
            volatile long spin = 0;
            while (cpu() - start < 0.010) spin++;
            _exit(0);
        }
        if (p > 0) made++; else usleep(1000);
    }
    usleep(200000);
    puts("done");
    return 0;
}"#,
    );
    let limits = Limits::new(Duration::from_secs(1), 256 << 20)
        .wall(Duration::from_secs(6))
        .processes(32);
    let ran = run(sb.as_ref(), &fx, &[], limits);
    assert_eq!(
        ran.outcome.termination,
        Termination::CpuTimeout,
        "1.5 s of CPU in self-reaped children, measured by {:?}: {:?} ({})",
        tiers.measurement,
        ran.outcome,
        ran.stderr
    );
    // Killed at the limit: the CPU read at the kill may be the limit itself.
    assert!(ran.outcome.cpu_ms >= 1000, "{:?}", ran.outcome);
}

/// 128 MiB of page tables and not one resident page: the zero page read
/// once every 2 MiB of a 64 GiB mapping (each read makes a page of page
/// table).
#[test]
fn r45_page_tables_count_as_memory() {
    let Some((sb, tiers)) = boxed_with_tiers() else {
        return;
    };
    let fx = Fixture::c(
        r#"
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void) {
    size_t len = (size_t)64 << 30;
    volatile char *m = mmap(0, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) { puts("nomap"); return 1; }
    madvise((void *)m, len, MADV_NOHUGEPAGE);
    long sum = 0;
    for (size_t at = 0; at < len; at += (size_t)2 << 20) sum += m[at];
    usleep(500000);
    printf("%ld\n", sum);
    return 0;
}"#,
    );
    let limits = Limits::new(Duration::from_secs(2), 64 << 20)
        .wall(Duration::from_secs(6))
        .processes(8);
    let ran = run(sb.as_ref(), &fx, &[], limits);
    assert_eq!(
        ran.outcome.termination,
        Termination::MemoryExceeded,
        "128 MiB of page tables under a 64 MiB limit, measured by {:?}: {:?} ({}{})",
        tiers.measurement,
        ran.outcome,
        ran.stdout,
        ran.stderr
    );
}

/// Local sockets' buffers filled by 20 processes (560 socket pairs, about
/// 140 MiB that no process maps), under a 64 MiB limit; and, first, a
/// program with one socket pair and one pipe in use is not charged
/// anything like its limit for them.
#[test]
fn r45_socket_and_pipe_buffers_count_as_memory() {
    let Some((sb, tiers)) = boxed_with_tiers() else {
        return;
    };
    let fx = Fixture::c(
        r#"
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
static char buf[65536];
int main(int argc, char **argv) {
    if (argc > 1) {
        int sv[2], p[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(p)) { puts("none"); return 1; }
        write(sv[0], "hello", 5);
        write(p[1], "hello", 5);
        char got[16] = {0};
        read(sv[1], got, 5);
        read(p[0], got + 5, 5);
        usleep(100000);
        puts(got);
        return 0;
    }
    for (int k = 0; k < 20; k++) {
        if (fork() == 0) {
            for (int i = 0; i < 28; i++) {
                int sv[2];
                if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) break;
                fcntl(sv[0], F_SETFL, O_NONBLOCK);
                while (write(sv[0], buf, sizeof buf) > 0) {}
            }
            usleep(1000000);
            _exit(0);
        }
    }
    while (wait(0) > 0) {}
    puts("done");
    return 0;
}"#,
    );
    let limits = Limits::new(Duration::from_secs(2), 64 << 20)
        .wall(Duration::from_secs(6))
        .processes(32);
    let fair = run(sb.as_ref(), &fx, &["fair"], limits);
    fair.assert_exited_ok();
    assert_eq!(fair.stdout, "hellohello\n");
    assert!(
        fair.outcome.memory_kib < 16 << 10,
        "one socket pair and one pipe cost {} KiB",
        fair.outcome.memory_kib
    );
    let ran = run(sb.as_ref(), &fx, &[], limits);
    assert_eq!(
        ran.outcome.termination,
        Termination::MemoryExceeded,
        "140 MiB in socket buffers under a 64 MiB limit, measured by {:?}: {:?} ({}{})",
        tiers.measurement,
        ran.outcome,
        ran.stdout,
        ran.stderr
    );
}

/// `grundy doctor` names what a tier cannot bound: the rlimit tier (no
/// isolation, for trusted code) bounds nothing of what the program does
/// not wait for.
#[test]
fn the_rlimit_tier_names_what_it_cannot_bound() {
    let config = SandboxConfig {
        isolation: Isolation::None,
        ..SandboxConfig::default()
    };
    let (_, tiers) = sandbox::select(&config);
    assert_eq!(tiers.isolation, sandbox::IsolationTier::None);
    assert!(
        tiers
            .unbounded
            .iter()
            .any(|l| l.contains("does not wait for") && l.contains("page tables")),
        "{:?}",
        tiers.unbounded
    );
}

/// Cgroups that were found are used: a box whose probe fails with them
/// falls back to the rusage tier with no more than a `missing:` line, so a
/// fault in the cgroup tier's setup would otherwise pass every other test
/// on the tier below it. Under `GRUNDY_REQUIRE_ALL=1` (CI, as root) that
/// fails; elsewhere it is one line.
#[test]
fn cgroups_found_are_cgroups_used() {
    let Some((_, tiers)) = boxed_with_tiers() else {
        return;
    };
    if let Some(line) = tiers.missing.iter().find(|l| l.contains("with cgroups:")) {
        crate::helpers::skip(&format!(
            "the box failed with the cgroups found and runs measured by {:?}: {line}",
            tiers.measurement
        ));
    }
}
