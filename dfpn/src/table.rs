//! The proof-number table: for each board searched, the bounds proved on its exact score
//! (kept across thresholds, so a binary search reuses earlier steps) and the proof and
//! disproof numbers of the latest threshold asked, with the work spent below it.
//!
//! Memory is fixed at creation. Buckets hold four entries; a new board takes an empty slot
//! or the entry of least work. When seven eighths of the slots are used, a garbage
//! collection drops the cheapest half of the entries (by work), keeping the expensive
//! subtrees that would cost the most to search again.

use engine::Board;

/// One board's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub pn: u32,
    pub dn: u32,
    /// Nodes expanded below this board so far (saturating).
    pub work: u32,
    /// `lower <= score <= upper` for the side to move.
    pub lower: i8,
    pub upper: i8,
    /// The threshold `pn` and `dn` belong to.
    pub threshold: i8,
}

impl Entry {
    fn is_empty(&self) -> bool {
        self.player == 0 && self.opponent == 0
    }

    fn holds(&self, board: &Board) -> bool {
        self.player == board.player && self.opponent == board.opponent
    }
}

const WAYS: usize = 4;

pub struct Table {
    buckets: Vec<[Entry; WAYS]>,
    mask: usize,
    used: usize,
    peak: usize,
    collections: u32,
}

/// What the table has been through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TableStats {
    pub capacity_bytes: usize,
    /// The most bytes in use at once.
    pub peak_bytes: usize,
    pub collections: u32,
}

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets).
    pub fn new(megabytes: usize) -> Table {
        let bucket_bytes = std::mem::size_of::<[Entry; WAYS]>();
        let fitting = ((megabytes.max(1) << 20) / bucket_bytes).max(1);
        let count = 1 << fitting.ilog2();
        Table {
            buckets: engine::memory::huge_page_vec(count, || [Entry::default(); WAYS]),
            mask: count - 1,
            used: 0,
            peak: 0,
            collections: 0,
        }
    }

    fn bucket_index(&self, board: &Board) -> usize {
        board.hash() as usize & self.mask
    }

    pub fn get(&self, board: &Board) -> Option<&Entry> {
        self.buckets[self.bucket_index(board)]
            .iter()
            .find(|e| e.holds(board))
    }

    /// Records what is known of `board`: bounds are intersected with the stored ones, the
    /// numbers replace them, `work` is added.
    pub fn store(
        &mut self,
        board: &Board,
        lower: i32,
        upper: i32,
        numbers: (u32, u32, i32),
        work: u64,
    ) {
        if self.used * 8 >= self.capacity() * 7 {
            self.collect_garbage();
        }
        let index = self.bucket_index(board);
        let bucket = &mut self.buckets[index];
        let slot = match bucket.iter().position(|e| e.holds(board)) {
            Some(i) => i,
            None => {
                let i = match bucket.iter().position(Entry::is_empty) {
                    Some(i) => {
                        self.used += 1;
                        self.peak = self.peak.max(self.used);
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
                    ..Entry::default()
                };
                i
            }
        };
        let entry = &mut bucket[slot];
        let (pn, dn, threshold) = numbers;
        entry.lower = entry.lower.max(lower as i8);
        entry.upper = entry.upper.min(upper as i8);
        entry.pn = pn;
        entry.dn = dn;
        entry.threshold = threshold as i8;
        entry.work = entry.work.saturating_add(work.min(u32::MAX as u64) as u32);
    }

    fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Drops the entries of least work until at most half the used slots remain.
    fn collect_garbage(&mut self) {
        // Entries by the bit length of their work: drop whole classes from the cheapest up.
        let mut classes = [0usize; 33];
        let class = |e: &Entry| (32 - e.work.leading_zeros()) as usize;
        for e in self.buckets.iter().flatten().filter(|e| !e.is_empty()) {
            classes[class(e)] += 1;
        }
        let mut dropped = 0;
        let mut limit = 0;
        while limit < classes.len() && dropped < self.used / 2 {
            dropped += classes[limit];
            limit += 1;
        }
        for e in self.buckets.iter_mut().flatten() {
            if !e.is_empty() && class(e) < limit {
                *e = Entry::default();
            }
        }
        self.used -= dropped;
        self.collections += 1;
    }

    pub fn stats(&self) -> TableStats {
        let entry_bytes = std::mem::size_of::<Entry>();
        TableStats {
            capacity_bytes: self.capacity() * entry_bytes,
            peak_bytes: self.peak * entry_bytes,
            collections: self.collections,
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
        let mut table = Table::new(1);
        let b = board(5);
        table.store(&b, -10, 20, (3, 4, 2), 7);
        table.store(&b, -20, 10, (5, 6, 0), 1);
        let e = table.get(&b).unwrap();
        assert_eq!((e.lower, e.upper), (-10, 10));
        assert_eq!((e.pn, e.dn, e.threshold, e.work), (5, 6, 0, 8));
    }

    #[test]
    fn collection_keeps_expensive_entries_and_bounds_memory() {
        let mut table = Table::new(1);
        let capacity = table.capacity();
        for i in 0..4 * capacity as u64 {
            table.store(&board(i), -64, 64, (1, 1, 0), i % 1000);
        }
        assert!(table.collections > 0);
        assert!(table.used <= capacity);
        assert_eq!(
            table.used,
            table
                .buckets
                .iter()
                .flatten()
                .filter(|e| !e.is_empty())
                .count()
        );
        // The most expensive boards stored last survive.
        let expensive = (0..4 * capacity as u64)
            .rev()
            .find(|i| i % 1000 == 999)
            .unwrap();
        assert!(table.get(&board(expensive)).is_some());
        assert!(table.stats().peak_bytes <= table.stats().capacity_bytes);
    }
}
