//! Large tables (transposition and proof-number tables) in huge pages where the system
//! offers them: a probe lands on a random cache line of hundreds of MiB, and with 4 KiB
//! pages most probes also miss the TLB; 2 MiB pages remove most of those misses.

/// A vector of `count` values made by `make`, its memory advised to use huge pages
/// (Linux, transparent huge pages in `madvise` or `always` mode) before it is first
/// written, so that the first writes fault it in as huge pages.
pub fn huge_page_vec<T>(count: usize, make: impl FnMut() -> T) -> Vec<T> {
    let mut vec = Vec::with_capacity(count);
    advise_huge_pages(vec.as_mut_ptr() as usize, count * std::mem::size_of::<T>());
    vec.extend(std::iter::repeat_with(make).take(count));
    vec
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
