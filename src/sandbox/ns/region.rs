//! The memory the judge shares with its zygote and every box's init: one
//! mapping cut into slots, a box's run description written into its own
//! slot ([`super::job`] lays it out). A slot is held by one box at a time
//! and given back, pages and all, when the box is done.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Bytes of memory shared with a box's init for the run's description
/// (arguments, environment, paths); mapped lazily, so only what a run
/// writes is ever allocated.
pub(super) const JOB_BYTES: usize = 4 << 20;

/// Memory shared by the judge, its zygote and every box's init: one
/// mapping made before the zygote is forked (so it has the same address
/// everywhere), cut into [`JOB_BYTES`] slots, one a box. Pages are
/// allocated only where a job is written and given back when its box is
/// done.
pub(super) struct Region {
    base: *mut u8,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
}

impl std::fmt::Debug for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Region").field("base", &self.base).finish()
    }
}

// SAFETY: the base address is only read; each slot is written by the one
// `Shared` that holds it.
unsafe impl Send for Region {}
// SAFETY: as above; the free list is behind a lock.
unsafe impl Sync for Region {}

/// How many boxes may hold a job at once (prepared, running or being
/// reaped); 2 GiB of address space, none of it allocated until used.
pub(super) const SLOTS: usize = 512;

impl Region {
    pub(super) fn new() -> std::io::Result<Region> {
        // SAFETY: a fresh anonymous mapping, no aliasing.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                SLOTS * JOB_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Region {
            base: base.cast(),
            free: Mutex::new((0..SLOTS).rev().collect()),
            freed: Condvar::new(),
        })
    }

    /// The whole mapping: its start and length.
    pub(super) fn span(&self) -> (usize, usize) {
        (self.base as usize, SLOTS * JOB_BYTES)
    }

    /// A free slot, waiting for one when all are held.
    pub(super) fn take(self: &Arc<Region>) -> Shared {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(index) = free.pop() {
                return Shared {
                    // SAFETY: within the mapping.
                    ptr: unsafe { self.base.add(index * JOB_BYTES) },
                    len: JOB_BYTES,
                    index,
                    region: Arc::clone(self),
                };
            }
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: our own mapping, unmapped once, after every slot is back.
        unsafe {
            libc::munmap(self.base.cast(), SLOTS * JOB_BYTES);
        }
    }
}

/// One box's slot of the [`Region`].
pub(super) struct Shared {
    pub(super) ptr: *mut u8,
    pub(super) len: usize,
    index: usize,
    region: Arc<Region>,
}

// SAFETY: the slot is owned by one `Boxed` at a time and written only by
// the thread running its run.
unsafe impl Send for Shared {}

impl Drop for Shared {
    fn drop(&mut self) {
        // The box is gone: give its pages back (MADV_REMOVE frees shared
        // anonymous memory) and the slot with them.
        // SAFETY: our own slot, which nothing uses any more.
        unsafe {
            libc::madvise(self.ptr.cast(), self.len, libc::MADV_REMOVE);
        }
        let mut free = self
            .region
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        free.push(self.index);
        self.region.freed.notify_one();
    }
}
