//! The run's description in memory shared with a box's init: a [`Job`]
//! laid out as C data (the same addresses in every process, since the
//! mapping is made before the zygote is forked), so the child reads it
//! without allocating or parsing.

use std::ffi::CString;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::boxed::Boxed;
use super::plan::{
    ancestors, in_root, locked_flags, nul_byte, rename, Entry, Item, RunMounts, SOURCE_FD, WORK,
};
use super::region::{Shared, JOB_BYTES};
use super::Inner;
use crate::sandbox::limits::{ProcessLimit, Rlimit};
use crate::sandbox::{Error, RunSpec};

/// One run's description.
#[repr(C)]
pub(super) struct Job {
    /// Directories to create before `ops`, parents first.
    pub(super) mkdirs: *const *const libc::c_char,
    pub(super) n_mkdirs: usize,
    pub(super) ops: *const JobOp,
    pub(super) n_ops: usize,
    pub(super) cwd: *const libc::c_char,
    pub(super) program: *const libc::c_char,
    pub(super) argv: *const *const libc::c_char,
    pub(super) envp: *const *const libc::c_char,
    pub(super) rlimits: *const Rlimit,
    pub(super) n_rlimits: usize,
    /// The core to pin the program to, or -1.
    pub(super) cpu: i64,
    /// Init keeps the box for another run of the same mounts after this
    /// one: it cleans the box, arms a new program's process and says it
    /// is prepared again, instead of exiting.
    pub(super) keep: bool,
    /// The working directory is the box's own tmpfs ([`super::plan::WORK`]),
    /// emptied between runs like `/tmp`.
    pub(super) work_tmpfs: bool,
    /// The run's working space ([`crate::sandbox::Bind::space`]), inside
    /// the box, or null: init hands it to the judge once the run is over.
    pub(super) space: *const libc::c_char,
}

/// What a [`JobOp`] mounts.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum JobKind {
    BindDir,
    BindFile,
    Symlink,
    /// A tmpfs (`source` holds its options).
    Tmpfs,
    /// A directory (inside a copied directory's tmpfs).
    Mkdir,
    /// A copy of host file `source` (opened to `fd`), of mode `mode`.
    CopyFile,
    /// Makes the tmpfs at `target` read-only (a copied directory is whole).
    Seal,
}

/// A per-run mount: a bind of a host path, or a symlink.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct JobOp {
    pub(super) kind: JobKind,
    pub(super) writable: u32,
    /// An item of a working space: where init makes it as root (the judge
    /// is root), it gives it to the box's user.
    pub(super) own: u32,
    /// Where init moves the reopened source.
    pub(super) fd: RawFd,
    /// Flags of the source mount that a user namespace may not drop.
    pub(super) locked: libc::c_ulong,
    /// Mode of a copied file.
    pub(super) mode: u32,
    /// The host path (a bind), or what the link points to (a symlink).
    pub(super) source: *const libc::c_char,
    /// `/proc/self/fd/<fd>`.
    pub(super) fd_path: *const libc::c_char,
    pub(super) target: *const libc::c_char,
}

/// The most files, directories and links a working space holds.
const SPACE_INODES: u32 = 65_536;

/// Lays C data out in a [`Shared`] mapping, front to back.
struct Arena<'a> {
    shared: &'a Shared,
    used: usize,
}

impl Arena<'_> {
    fn alloc(&mut self, size: usize, align: usize) -> Result<*mut u8, Error> {
        let start = self.used.div_ceil(align) * align;
        let end = start
            .checked_add(size)
            .filter(|&end| end <= self.shared.len)
            .ok_or_else(|| {
                Error::Unavailable(format!(
                    "the program's arguments, environment and paths exceed {} MiB",
                    JOB_BYTES >> 20
                ))
            })?;
        self.used = end;
        // SAFETY: in bounds of the mapping, checked above.
        Ok(unsafe { self.shared.ptr.add(start) })
    }

    fn put<T: Copy>(&mut self, items: &[T]) -> Result<*const T, Error> {
        let p = self
            .alloc(std::mem::size_of_val(items), std::mem::align_of::<T>())?
            .cast::<T>();
        // SAFETY: `p` is aligned and has room for `items`, which cannot
        // overlap the mapping's fresh space.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p, items.len()) };
        Ok(p)
    }

    fn cstr(&mut self, bytes: &[u8]) -> Result<*const libc::c_char, Error> {
        if bytes.contains(&0) {
            return Err(nul_byte());
        }
        let p = self.alloc(bytes.len() + 1, 1)?;
        // SAFETY: room for the bytes and the NUL, checked by alloc.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
            *p.add(bytes.len()) = 0;
        }
        Ok(p.cast_const().cast())
    }

    /// A NULL-terminated array of C strings.
    fn strings<'s>(
        &mut self,
        items: impl IntoIterator<Item = &'s [u8]>,
    ) -> Result<*const *const libc::c_char, Error> {
        let mut ptrs = Vec::new();
        for item in items {
            ptrs.push(self.cstr(item)?);
        }
        ptrs.push(std::ptr::null());
        self.put(&ptrs)
    }
}

/// The run's mounts as [`JobOp`]s (their strings in `arena`), and the
/// directories in the box they need, parents first: paths relative to the
/// box's root ([`in_root`]).
fn mounts(arena: &mut Arena, run: &RunMounts) -> Result<(Vec<JobOp>, Vec<CString>), Error> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut ops = Vec::new();
    for (i, (inside, entry)) in run.entries.iter().enumerate() {
        let parent = inside.parent().unwrap_or(Path::new("/"));
        let fd = SOURCE_FD + i as RawFd;
        let target = arena.cstr(in_root(inside)?.as_bytes())?;
        let (kind, source, writable, locked, new_dirs) = match entry {
            Entry::Bind { source, writable } if source.is_dir() => (
                JobKind::BindDir,
                source.as_path(),
                *writable,
                locked_flags(source),
                inside.as_path(),
            ),
            Entry::Bind { source, writable } => (
                JobKind::BindFile,
                source.as_path(),
                *writable,
                locked_flags(source),
                parent,
            ),
            Entry::Symlink(to) => (JobKind::Symlink, to.as_path(), false, 0, parent),
            Entry::Tmpfs(options) => (
                JobKind::Tmpfs,
                Path::new(options.as_str()),
                true,
                0,
                inside.as_path(),
            ),
            _ => unreachable!("a run adds only binds, symlinks and tmpfs"),
        };
        for at in ancestors(new_dirs) {
            if !dirs.contains(&at) {
                dirs.push(at);
            }
        }
        ops.push(JobOp {
            kind,
            writable: u32::from(writable),
            own: 0,
            fd,
            locked,
            mode: 0,
            source: arena.cstr(source.as_os_str().as_bytes())?,
            fd_path: arena.cstr(format!("/proc/self/fd/{fd}").as_bytes())?,
            target,
        });
    }
    // Copied directories: a tmpfs each, filled, then made read-only.
    let mut fd = SOURCE_FD + run.entries.len() as RawFd;
    let empty = arena.cstr(b"")?;
    for copy in &run.copies {
        for at in ancestors(&copy.inside) {
            if !dirs.contains(&at) {
                dirs.push(at);
            }
        }
        let own = u32::from(copy.space.is_some());
        let mut op = |kind, target: &Path, source: &[u8], fd: RawFd, mode| -> Result<(), Error> {
            ops.push(JobOp {
                kind,
                writable: 0,
                own,
                fd,
                locked: 0,
                mode,
                source: arena.cstr(source)?,
                fd_path: empty,
                target: arena.cstr(in_root(target)?.as_bytes())?,
            });
            Ok(())
        };
        // A working space bounds its entries too (their inodes are kernel
        // memory, which its size does not count).
        let options = match copy.space {
            Some(_) => format!("size={}k,nr_inodes={SPACE_INODES},mode=0755", copy.kib),
            None => format!("size={}k,mode=0755", copy.kib),
        };
        op(JobKind::Tmpfs, &copy.inside, options.as_bytes(), -1, 0)?;
        for (at, item) in &copy.items {
            match item {
                Item::Dir => op(JobKind::Mkdir, at, b"", -1, 0)?,
                Item::Symlink(to) => op(JobKind::Symlink, at, to.as_os_str().as_bytes(), -1, 0)?,
                Item::File { source, mode } => {
                    op(
                        JobKind::CopyFile,
                        at,
                        source.as_os_str().as_bytes(),
                        fd,
                        *mode,
                    )?;
                    fd += 1;
                }
            }
        }
        if copy.space.is_none() {
            op(JobKind::Seal, &copy.inside, b"", -1, 0)?;
        }
    }
    let mkdirs = dirs.iter().map(|d| in_root(d)).collect::<Result<_, _>>()?;
    Ok((ops, mkdirs))
}

impl Inner {
    /// Writes the run's [`Job`] into box `b`'s shared memory.
    pub(super) fn load(
        &self,
        b: &Boxed,
        spec: &RunSpec,
        run: &RunMounts,
        keep: bool,
    ) -> Result<(), Error> {
        let mut arena = Arena {
            shared: &b.shared,
            used: 0,
        };
        let job_at = arena
            .alloc(std::mem::size_of::<Job>(), std::mem::align_of::<Job>())?
            .cast::<Job>();
        let (ops, mkdirs) = mounts(&mut arena, run)?;
        // Host paths the box sees elsewhere are named where it sees them.
        let program = match spec.program.to_str() {
            Some(p) => rename(p, &run.renames).into_bytes(),
            None => spec.program.as_os_str().as_bytes().to_vec(),
        };
        let args: Vec<String> = spec.args.iter().map(|a| rename(a, &run.renames)).collect();
        let argv = std::iter::once(program.as_slice()).chain(args.iter().map(|a| a.as_bytes()));
        let env: Vec<Vec<u8>> = spec
            .env
            .iter()
            .map(|(k, v)| format!("{k}={}", rename(v, &run.renames)).into_bytes())
            .collect();
        let processes = match &self.cgroups {
            Some(cg) if cg.limits_processes() => ProcessLimit::NotByRlimit,
            // Without a pids controller: per-user process count, which in
            // a fresh user namespace counts this box alone.
            _ => ProcessLimit::Rlimit,
        };
        let rlimits = spec.limits.rlimits(processes);
        let job = Job {
            mkdirs: arena.strings(mkdirs.iter().map(|c| c.as_bytes()))?,
            n_mkdirs: mkdirs.len(),
            ops: arena.put(&ops)?,
            n_ops: ops.len(),
            cwd: arena.cstr(run.cwd.as_os_str().as_bytes())?,
            program: arena.cstr(&program)?,
            argv: arena.strings(argv)?,
            envp: arena.strings(env.iter().map(Vec::as_slice))?,
            rlimits: arena.put(rlimits.as_slice())?,
            n_rlimits: rlimits.as_slice().len(),
            cpu: spec.cpu.map_or(-1, |c| c as i64),
            keep,
            work_tmpfs: run.cwd == Path::new(WORK),
            space: match run.copies.iter().find(|c| c.space.is_some()) {
                Some(c) => arena.cstr(c.inside.as_os_str().as_bytes())?,
                None => std::ptr::null(),
            },
        };
        // SAFETY: `job_at` is aligned room for a Job in the mapping.
        unsafe { job_at.write(job) };
        Ok(())
    }
}

/// `n` items at `ptr` (none when `n` is 0, whatever `ptr` is).
///
/// # Safety
/// When `n > 0`, `ptr` points at `n` initialised items that outlive `'a`.
pub(super) unsafe fn slice<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, n)
    }
}
