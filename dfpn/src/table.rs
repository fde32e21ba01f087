//! The proof-number table: for each board searched, the bounds proved on its exact score
//! (kept across thresholds, so a binary search reuses earlier steps) and the proof and
//! disproof numbers of the latest threshold asked, with the work spent below it and how
//! many threads are searching it now.
//!
//! Memory is fixed at creation. Buckets hold four entries; a new board takes an empty slot
//! or the entry of least work. When seven eighths of the slots are used, a garbage
//! collection drops the cheapest half of the entries (by work), keeping the expensive
//! subtrees that would cost the most to search again.
//!
//! Threads share the table: each bucket has its own lock, held only to copy an entry in or
//! out, and a collection goes bucket by bucket while the others keep working.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

use engine::Board;

/// One board's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The board's discs (side to move).
    pub player: u64,
    /// The board's discs (the other side).
    pub opponent: u64,
    /// Proof number at `threshold`.
    pub pn: u32,
    /// Disproof number at `threshold`.
    pub dn: u32,
    /// Nodes expanded below this board so far (saturating).
    pub work: u32,
    /// `lower <= score <= upper` for the side to move.
    pub lower: i8,
    /// See `lower`.
    pub upper: i8,
    /// The threshold `pn` and `dn` belong to ([`NO_THRESHOLD`]: none yet).
    pub threshold: i8,
    /// Threads searching below this board now (the others then prefer its siblings).
    pub busy: u8,
}

/// The threshold of an entry made by [`Table::enter`] before any numbers are known.
pub const NO_THRESHOLD: i8 = i8::MIN;

impl Entry {
    fn is_empty(&self) -> bool {
        self.player == 0 && self.opponent == 0
    }

    fn holds(&self, board: &Board) -> bool {
        self.player == board.player && self.opponent == board.opponent
    }
}

const WAYS: usize = 4;

type Bucket = [Entry; WAYS];

/// The proof-number table shared by a prover's threads: buckets of a few entries behind a
/// lock each, bounded in memory, collected (the least worked-on entries dropped) when
/// nearly full.
pub struct Table {
    buckets: Vec<Mutex<Bucket>>,
    mask: usize,
    used: AtomicUsize,
    peak: AtomicUsize,
    collections: AtomicU32,
    /// Held by the thread collecting garbage; the others do not wait for it.
    collecting: Mutex<()>,
}

/// What the table has been through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TableStats {
    /// The table's size.
    pub capacity_bytes: usize,
    /// The most bytes in use at once.
    pub peak_bytes: usize,
    /// Garbage collections run.
    pub collections: u32,
}

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets).
    pub fn new(megabytes: usize) -> Table {
        let bucket_bytes = std::mem::size_of::<Mutex<Bucket>>();
        let fitting = ((megabytes.max(1) << 20) / bucket_bytes).max(1);
        let count = 1 << fitting.ilog2();
        Table {
            buckets: engine::memory::huge_page_vec(count, || Mutex::new([Entry::default(); WAYS])),
            mask: count - 1,
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            collections: AtomicU32::new(0),
            collecting: Mutex::new(()),
        }
    }

    /// The bucket `board` belongs in.
    fn home(&self, board: &Board) -> &Mutex<Bucket> {
        &self.buckets[board.hash() as usize & self.mask]
    }

    fn bucket(&self, board: &Board) -> MutexGuard<'_, Bucket> {
        // A thread that panicked holding a bucket left whole entries: keep using them.
        self.home(board)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts loading the bucket of `board` into the cache (a bucket spans up to three
    /// cache lines): a node asks for all its children's buckets before it reads the first,
    /// so the memory waits overlap.
    #[inline]
    pub fn prefetch(&self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = self.home(board) as *const Mutex<Bucket>;
            let bytes = std::mem::size_of::<Mutex<Bucket>>();
            for offset in (0..bytes).step_by(64).chain([bytes - 1]) {
                // SAFETY: a prefetch is only a hint; it never faults, whatever the address
                // (and this one lies inside the bucket).
                unsafe { _mm_prefetch::<_MM_HINT_T0>((start as *const i8).add(offset)) };
            }
        }
    }

    /// The entry of `board`, if the table holds one.
    pub fn get(&self, board: &Board) -> Option<Entry> {
        self.bucket(board).iter().find(|e| e.holds(board)).copied()
    }

    /// The entry of `board` in its bucket, made (unbounded, without numbers) in an empty
    /// slot or in place of the entry of least work if there is none.
    fn slot<'b>(&self, bucket: &'b mut Bucket, board: &Board) -> &'b mut Entry {
        let i = match bucket.iter().position(|e| e.holds(board)) {
            Some(i) => i,
            None => {
                let i = match bucket.iter().position(Entry::is_empty) {
                    Some(i) => {
                        let used = self.used.fetch_add(1, Relaxed) + 1;
                        self.peak.fetch_max(used, Relaxed);
                        i
                    }
                    None => (0..WAYS)
                        .min_by_key(|&i| bucket[i].work)
                        .expect("a bucket has slots"),
                };
                bucket[i] = Entry {
                    player: board.player,
                    opponent: board.opponent,
                    lower: -64,
                    upper: 64,
                    threshold: NO_THRESHOLD,
                    ..Entry::default()
                };
                i
            }
        };
        &mut bucket[i]
    }

    /// Records what is known of `board`: bounds are intersected with the stored ones, the
    /// numbers replace them, `work` is added.
    pub fn store(
        &self,
        board: &Board,
        lower: i32,
        upper: i32,
        numbers: (u32, u32, i32),
        work: u64,
    ) {
        self.collect_if_full();
        let mut bucket = self.bucket(board);
        let entry = self.slot(&mut bucket, board);
        let (pn, dn, threshold) = numbers;
        entry.lower = entry.lower.max(lower as i8);
        entry.upper = entry.upper.min(upper as i8);
        entry.pn = pn;
        entry.dn = dn;
        entry.threshold = threshold as i8;
        entry.work = entry.work.saturating_add(work.min(u32::MAX as u64) as u32);
    }

    /// Counts a thread in below `board` (see [`Entry::busy`]).
    pub fn enter(&self, board: &Board) {
        self.collect_if_full();
        let mut bucket = self.bucket(board);
        let entry = self.slot(&mut bucket, board);
        entry.busy = entry.busy.saturating_add(1);
    }

    /// Counts a thread out of `board`, if its entry is still there.
    pub fn leave(&self, board: &Board) {
        if let Some(entry) = self.bucket(board).iter_mut().find(|e| e.holds(board)) {
            entry.busy = entry.busy.saturating_sub(1);
        }
    }

    fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    fn collect_if_full(&self) {
        if self.used.load(Relaxed) * 8 >= self.capacity() * 7 {
            if let Ok(_collecting) = self.collecting.try_lock() {
                if self.used.load(Relaxed) * 8 >= self.capacity() * 7 {
                    self.collect_garbage();
                }
            }
        }
    }

    /// Drops the entries of least work until about half the used slots remain (entries
    /// that threads are searching below stay).
    fn collect_garbage(&self) {
        // Entries by the bit length of their work: drop whole classes from the cheapest up.
        let mut classes = [0usize; 33];
        let class = |e: &Entry| (32 - e.work.leading_zeros()) as usize;
        for bucket in &self.buckets {
            let bucket = bucket.lock().unwrap_or_else(|p| p.into_inner());
            for e in bucket.iter().filter(|e| !e.is_empty()) {
                classes[class(e)] += 1;
            }
        }
        let used: usize = classes.iter().sum();
        let mut dropped = 0;
        let mut limit = 0;
        while limit < classes.len() && dropped < used / 2 {
            dropped += classes[limit];
            limit += 1;
        }
        for bucket in &self.buckets {
            let mut bucket = bucket.lock().unwrap_or_else(|p| p.into_inner());
            for e in bucket.iter_mut() {
                if !e.is_empty() && class(e) < limit && e.busy == 0 {
                    *e = Entry::default();
                    self.used.fetch_sub(1, Relaxed);
                }
            }
        }
        self.collections.fetch_add(1, Relaxed);
    }

    /// What the table has been through.
    pub fn stats(&self) -> TableStats {
        let entry_bytes = std::mem::size_of::<Entry>();
        TableStats {
            capacity_bytes: self.capacity() * entry_bytes,
            peak_bytes: self.peak.load(Relaxed) * entry_bytes,
            collections: self.collections.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(i: u64) -> Board {
        Board::new(i << 1 | 1 << 63, 1 << 40)
    }

    #[test]
    fn entries_are_compact() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }

    #[test]
    fn bounds_only_tighten() {
        let table = Table::new(1);
        let b = board(5);
        table.store(&b, -10, 20, (3, 4, 2), 7);
        table.store(&b, -20, 10, (5, 6, 0), 1);
        let e = table.get(&b).unwrap();
        assert_eq!((e.lower, e.upper), (-10, 10));
        assert_eq!((e.pn, e.dn, e.threshold, e.work), (5, 6, 0, 8));
    }

    #[test]
    fn collection_keeps_expensive_entries_and_bounds_memory() {
        let table = Table::new(1);
        let capacity = table.capacity();
        for i in 0..4 * capacity as u64 {
            table.store(&board(i), -64, 64, (1, 1, 0), i % 1000);
        }
        assert!(table.collections.load(Relaxed) > 0);
        let used = table.used.load(Relaxed);
        assert!(used <= capacity);
        let filled: usize = table
            .buckets
            .iter()
            .map(|b| b.lock().unwrap().iter().filter(|e| !e.is_empty()).count())
            .sum();
        assert_eq!(used, filled);
        // The most expensive boards stored last survive.
        let expensive = (0..4 * capacity as u64)
            .rev()
            .find(|i| i % 1000 == 999)
            .unwrap();
        assert!(table.get(&board(expensive)).is_some());
        assert!(table.stats().peak_bytes <= table.stats().capacity_bytes);
    }

    #[test]
    fn busy_counts_threads_in_and_out() {
        let table = Table::new(1);
        let b = board(9);
        table.enter(&b);
        table.enter(&b);
        let e = table.get(&b).unwrap();
        assert_eq!(
            (e.busy, e.threshold, e.lower, e.upper),
            (2, NO_THRESHOLD, -64, 64)
        );
        table.store(&b, 0, 10, (3, 4, 2), 5);
        table.leave(&b);
        let e = table.get(&b).unwrap();
        assert_eq!((e.busy, e.pn, e.threshold), (1, 3, 2));
        table.leave(&b);
        table.leave(&b);
        assert_eq!(table.get(&b).unwrap().busy, 0);
    }
}
