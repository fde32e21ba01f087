//! Large tables (transposition and proof-number tables) in huge pages where the system
//! offers them: a probe lands on a random cache line of hundreds of MiB, and with 4 KiB
//! pages most probes also miss the TLB; 2 MiB pages remove most of those misses.

/// The rule by which a command divides its memory budget (`--hash-mb`) between its
/// tables: each gets a fixed share of the whole (`numerator / denominator`), at least 1
/// MiB. The shares are each tool's, where they were measured: the midgame search, half
/// for its own table and half for the exact solver of the game's end; dfpn, three
/// quarters for the proof-number table and a quarter for the alpha-beta leaves' table.
pub fn share_mb(total_mb: usize, numerator: usize, denominator: usize) -> usize {
    (total_mb * numerator / denominator).max(1)
}

/// A vector of `count` values made by `make`, its memory advised to use huge pages
/// (Linux, transparent huge pages in `madvise` or `always` mode) before it is first
/// written, so that the first writes fault it in as huge pages.
pub fn huge_page_vec<T>(count: usize, make: impl FnMut() -> T) -> Vec<T> {
    let mut vec = Vec::new();
    if vec.try_reserve_exact(count).is_err() {
        refused(count.saturating_mul(std::mem::size_of::<T>()));
    }
    advise_huge_pages(vec.as_mut_ptr() as usize, count * std::mem::size_of::<T>());
    vec.extend(std::iter::repeat_with(make).take(count));
    vec
}

/// Ends the process when the system refuses a table: a one-line error naming the size and
/// exit status 2 (the budget is bad input, as `--hash-mb` beyond the machine is), where
/// Rust's answer to a failed allocation is an abort. The budget options check the machine
/// and the address-space limit first (`cli::parse_memory_mb`); this is for what they
/// cannot see (memory taken since, a limit on data).
fn refused(bytes: usize) -> ! {
    let program = std::env::args().next().unwrap_or_default();
    let program = std::path::Path::new(&program)
        .file_name()
        .map_or("othello".into(), |n| n.to_string_lossy().into_owned());
    eprintln!(
        "{program}: the system refused a table of {} MiB (ulimit -v or -d, or memory in use): give a smaller --hash-mb or --memory-mb",
        bytes >> 20
    );
    std::process::exit(2)
}

/// Types whose all-zero bytes are a valid value: the empty entry of a table.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type.
pub(crate) unsafe trait Zeroable {}

/// `len` values of `T`, all zero at first, in memory the system zeroes itself (an
/// anonymous mapping on Unix; zeroed memory from the allocator elsewhere), huge pages
/// advised, and mapped page by page when it is made, on every core: the cost is paid
/// before a search starts its clock, not in the first search (results/integrity.md).
pub(crate) struct ZeroedSlice<T: Zeroable> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: the slice owns its values as a Vec would.
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access hands out only `&T`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zero values (at least one page is mapped).
    pub fn new(len: usize) -> ZeroedSlice<T> {
        let layout = Self::layout(len);
        let ptr = std::ptr::NonNull::new(allocate_zeroed(layout) as *mut T)
            .unwrap_or_else(|| refused(layout.size()));
        advise_huge_pages(ptr.as_ptr() as usize, layout.size());
        prefault(ptr.as_ptr() as *mut u8, layout.size());
        ZeroedSlice { ptr, len }
    }

    /// Whole pages, at least one (what a mapping takes), page-aligned.
    fn layout(len: usize) -> std::alloc::Layout {
        const PAGE: usize = 4096;
        assert!(std::mem::align_of::<T>() <= PAGE);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| b.max(1).checked_next_multiple_of(PAGE))
            .expect("a table that fits the address space");
        std::alloc::Layout::from_size_align(bytes, PAGE)
            .expect("a table that fits the address space")
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` values, zero (valid: `T: Zeroable`) or written since, in memory
        // this slice owns until it is dropped.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the values are dropped in place (tables hold atomics: nothing to do,
        // but a `T` that needs it gets it), then the memory returns whence it came.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            release(self.ptr.as_ptr() as *mut u8, Self::layout(self.len));
        }
    }
}

/// Zeroed, page-aligned memory of `layout`'s size; null on failure.
#[cfg(unix)]
fn allocate_zeroed(layout: std::alloc::Layout) -> *mut u8 {
    // SAFETY: a new private anonymous mapping (zero-filled by the system); nothing else is
    // touched.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            layout.size(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        ptr as *mut u8
    }
}

/// # Safety
/// `ptr` came from [`allocate_zeroed`] with this `layout`.
#[cfg(unix)]
unsafe fn release(ptr: *mut u8, layout: std::alloc::Layout) {
    // SAFETY: the caller's promise: the whole mapping, unmapped once.
    unsafe { libc::munmap(ptr as *mut libc::c_void, layout.size()) };
}

#[cfg(not(unix))]
fn allocate_zeroed(layout: std::alloc::Layout) -> *mut u8 {
    // SAFETY: the layout has a non-zero size.
    unsafe { std::alloc::alloc_zeroed(layout) }
}

/// # Safety
/// `ptr` came from [`allocate_zeroed`] with this `layout`.
#[cfg(not(unix))]
unsafe fn release(ptr: *mut u8, layout: std::alloc::Layout) {
    // SAFETY: the caller's promise.
    unsafe { std::alloc::dealloc(ptr, layout) };
}

/// Touches every page of the `bytes` at `start` (zeroed memory, written with zero), so
/// that the system maps them now, as huge pages where advised, and not during the first
/// search, whose clock counted it (most where the kernel compacts memory to find huge
/// pages; results/integrity.md).
fn prefault(start: *mut u8, bytes: usize) {
    use rayon::prelude::*;
    const PAGE: usize = 4096;
    // Mapping is mostly the kernel zeroing pages: on every core, in 2 MiB stretches.
    const STRETCH: usize = 2 << 20;
    let start = start as usize;
    (0..bytes.div_ceil(STRETCH))
        .into_par_iter()
        .for_each(|stretch| {
            let first = stretch * STRETCH;
            for offset in (first..bytes.min(first + STRETCH)).step_by(PAGE) {
                // SAFETY: within the allocation; its bytes are zero and stay zero.
                unsafe { std::ptr::write_volatile((start + offset) as *mut u8, 0) };
            }
        });
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    // Only whole 2 MiB pages inside the allocation can be huge.
    let first = start.next_multiple_of(HUGE);
    let end = (start + bytes) / HUGE * HUGE;
    if end > first {
        // SAFETY: the range lies inside memory this process owns and only gets a hint;
        // a refusal (no huge pages configured) changes nothing, so its result is ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn zeroed_slices_start_at_zero_and_keep_what_is_written() {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        struct Entry([AtomicU64; 3]);
        // SAFETY: atomics of zero.
        unsafe impl super::Zeroable for Entry {}
        for len in [1, 3, 1 << 20] {
            let slice = super::ZeroedSlice::<Entry>::new(len);
            assert_eq!(slice.len(), len);
            assert!(slice
                .iter()
                .step_by(4099)
                .all(|e| e.0[2].load(Relaxed) == 0));
            slice[len - 1].0[1].store(7, Relaxed);
            assert_eq!(slice[len - 1].0[1].load(Relaxed), 7);
        }
    }

    #[test]
    fn values_are_made_in_order() {
        let mut next = 0;
        let vec = super::huge_page_vec(5 << 20, || {
            next += 1;
            next
        });
        assert_eq!(vec.len(), 5 << 20);
        assert_eq!(vec[0], 1);
        assert_eq!(vec[(5 << 20) - 1], 5 << 20);
    }
}
