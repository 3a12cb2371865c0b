//! The mount system calls of the child side: binds (read-only where
//! asked), directories, tmpfs.

use std::os::fd::RawFd;

use super::{check, fail};
use crate::sandbox::ns::wire::Step;

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const AT_RECURSIVE: libc::c_uint = 0x8000;
const OPEN_TREE_CLONE: libc::c_uint = 0x1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const RESOLVE_IN_ROOT: u64 = 0x10;

/// `struct open_how` of `openat2`.
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Makes the mount at `target` (and everything below it) read-only.
pub(super) unsafe fn make_read_only(
    target: *const libc::c_char,
    locked: libc::c_ulong,
    report: RawFd,
) {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    let r = libc::syscall(
        libc::SYS_mount_setattr,
        libc::AT_FDCWD,
        target,
        AT_RECURSIVE,
        &attr as *const MountAttr,
        std::mem::size_of::<MountAttr>(),
    );
    if r == 0 {
        return;
    }
    // Older kernels: remount the top mount, keeping its locked flags.
    let flags = libc::MS_REMOUNT
        | libc::MS_BIND
        | libc::MS_RDONLY
        | libc::MS_NOSUID
        | libc::MS_NODEV
        | locked;
    check(
        libc::mount(
            std::ptr::null(),
            target,
            std::ptr::null(),
            flags,
            std::ptr::null(),
        ),
        report,
        Step::ReadOnly,
    );
}

/// A detached copy of the mounts at `path` (from `at`; the empty path:
/// `at` itself) and of every mount below (close-on-exec), or -1.
pub(super) unsafe fn clone_mounts(at: RawFd, path: *const libc::c_char) -> RawFd {
    let empty = if *path == 0 { libc::AT_EMPTY_PATH } else { 0 };
    libc::syscall(
        libc::SYS_open_tree,
        at,
        path,
        OPEN_TREE_CLONE | AT_RECURSIVE | (empty | libc::O_CLOEXEC) as libc::c_uint,
    ) as RawFd
}

/// Opens host path `path` with `flags` (close-on-exec) in `tree`, a
/// detached copy of init's mount namespace taken before it entered the
/// box's root (see `init::enter_ahead`): the path and its symbolic links
/// are resolved in the copy as they were on the host.
unsafe fn open_in(tree: RawFd, path: *const libc::c_char, flags: libc::c_int) -> RawFd {
    let how = OpenHow {
        flags: (flags | libc::O_CLOEXEC) as u64,
        mode: 0,
        resolve: RESOLVE_IN_ROOT,
    };
    libc::syscall(
        libc::SYS_openat2,
        tree,
        path,
        &how as *const OpenHow,
        std::mem::size_of::<OpenHow>(),
    ) as RawFd
}

/// A bind's source, opened as a path only, for [`bind`].
pub(super) const BIND_SOURCE: libc::c_int = libc::O_PATH;
/// A copied file, opened for reading, for [`copy_file`].
pub(super) const COPY_SOURCE: libc::c_int = libc::O_RDONLY | libc::O_NOFOLLOW;

/// Opens `source` with `flags` ([`BIND_SOURCE`] or [`COPY_SOURCE`]) with
/// the judge's identity, and moves it to `fd`: in the box's own mount
/// namespace (a mount of the judge's namespace cannot be bound here), or
/// in `tree` where it is not -1.
pub(super) unsafe fn open_source(
    source: *const libc::c_char,
    flags: libc::c_int,
    fd: RawFd,
    tree: RawFd,
    report: RawFd,
) {
    let f = if tree < 0 {
        libc::open(source, flags | libc::O_CLOEXEC)
    } else {
        open_in(tree, source, flags)
    };
    if f < 0 || libc::dup3(f, fd, libc::O_CLOEXEC) < 0 {
        fail(report, Step::Open);
    }
    libc::close(f);
}

/// Copies the open file `fd` to a new file `target` of mode `mode`, and
/// closes `fd`.
pub(super) unsafe fn copy_file(fd: RawFd, target: *const libc::c_char, mode: u32, report: RawFd) {
    let out = libc::open(
        target,
        libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC,
        0o600,
    );
    if out < 0 {
        fail(report, Step::Copy);
    }
    loop {
        let n = libc::sendfile(out, fd, std::ptr::null_mut(), 1 << 30);
        if n == 0 {
            break;
        }
        if n < 0 && *libc::__errno_location() != libc::EINTR {
            fail(report, Step::Copy);
        }
    }
    check(libc::fchmod(out, mode), report, Step::Copy);
    libc::close(out);
    libc::close(fd);
}

/// Creates directory `path` unless it exists.
pub(super) unsafe fn mkdir(path: *const libc::c_char, report: RawFd) {
    if libc::mkdir(path, 0o755) != 0 && *libc::__errno_location() != libc::EEXIST {
        fail(report, Step::Mkdir);
    }
}

/// Binds `/proc/self/fd/N` (a reopened source) at `target`; where the
/// source was opened in a detached tree (`in_tree`, the same descriptor;
/// -1 otherwise), moves a copy of its mounts cloned out of the tree there
/// instead. Creates the target first when it is a file.
pub(super) unsafe fn bind(
    fd_path: *const libc::c_char,
    in_tree: RawFd,
    target: *const libc::c_char,
    file: bool,
    writable: bool,
    locked: libc::c_ulong,
    report: RawFd,
) {
    if file {
        let fd = libc::open(
            target,
            libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
            0o644,
        );
        if fd < 0 && *libc::__errno_location() != libc::EEXIST {
            fail(report, Step::Mkdir);
        }
        if fd >= 0 {
            libc::close(fd);
        }
    }
    let bound = if in_tree >= 0 {
        // One copy at a time: each is a mount namespace of its own until
        // it is moved, and the box may hold few (see
        // `init::limit_namespace_counts`).
        let copy = clone_mounts(in_tree, c"".as_ptr());
        if copy < 0 {
            fail(report, Step::Bind);
        }
        let moved = libc::syscall(
            libc::SYS_move_mount,
            copy,
            c"".as_ptr(),
            libc::AT_FDCWD,
            target,
            MOVE_MOUNT_F_EMPTY_PATH,
        ) as libc::c_int;
        libc::close(copy);
        moved
    } else {
        libc::mount(
            fd_path,
            target,
            std::ptr::null(),
            libc::MS_BIND | libc::MS_REC,
            std::ptr::null(),
        )
    };
    check(bound, report, Step::Bind);
    if !writable {
        make_read_only(target, locked, report);
    }
}

pub(super) unsafe fn mount_tmpfs(
    target: *const libc::c_char,
    options: *const libc::c_char,
    report: RawFd,
    step: Step,
) {
    check(
        libc::mount(
            c"tmpfs".as_ptr(),
            target,
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.cast(),
        ),
        report,
        step,
    );
}
