//! The transposition table: bounds on the exact score of boards already searched.
//!
//! Each entry keeps the whole board (so a hit is never a different position: answers stay
//! exact), a lower and an upper bound, the best move and the number of empties. Buckets of
//! two entries fill one 64-byte cache line together with a sequence counter that makes the
//! table safe to share between threads without locks on the read path: a writer that finds
//! the bucket busy drops its store (it is only a cache), a reader retries while a write is
//! under way, and a torn entry is never returned.

use std::sync::atomic::{fence, AtomicU64, Ordering::*};

use crate::board::Board;

/// What the table knows about a board: `lower <= score <= upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The best move found (square index), or `NO_MOVE`.
    pub best: u8,
    /// The selectivity the bounds were searched at (`probcut::EXACT`: proved); only a
    /// search at this level or below may use them, any search may use the move.
    pub selectivity: u8,
}

/// [`Bounds::best`] when no move is known.
pub const NO_MOVE: u8 = 64;

#[repr(C, align(64))]
struct Bucket {
    /// Even when idle, odd while a writer owns the bucket.
    sequence: AtomicU64,
    /// Per entry: player, opponent, packed data (0 = empty slot).
    entries: [[AtomicU64; 3]; 2],
}

// SAFETY: atomics only; all zero is an idle bucket of empty slots.
unsafe impl crate::memory::Zeroable for Bucket {}

/// Packed data word: lower+64 (8 bits), upper+64 (8), best move (8), empties (8),
/// generation (8), log2 of nodes spent (8), selectivity (8).
#[derive(Clone, Copy)]
struct Data(u64);

impl Data {
    fn new(bounds: Bounds, empties: u32, generation: u8, cost: u8) -> Data {
        Data(
            (bounds.lower + 64) as u64
                | ((bounds.upper + 64) as u64) << 8
                | (bounds.best as u64) << 16
                | (empties as u64) << 24
                | (generation as u64) << 32
                | (cost as u64) << 40
                | (bounds.selectivity as u64) << 48
                | 1 << 63,
        )
    }
    fn bounds(self) -> Bounds {
        Bounds {
            lower: (self.0 & 0xff) as i32 - 64,
            upper: (self.0 >> 8 & 0xff) as i32 - 64,
            best: (self.0 >> 16 & 0xff) as u8,
            selectivity: (self.0 >> 48 & 0xff) as u8,
        }
    }
    fn generation(self) -> u8 {
        (self.0 >> 32) as u8
    }
    /// Replacement priority: current generation first, then the costlier search.
    fn priority(self, generation: u8) -> u32 {
        let current = (self.generation() == generation) as u32;
        let cost = (self.0 >> 40 & 0xff) as u32;
        let empties = (self.0 >> 24 & 0xff) as u32;
        current << 16 | cost << 8 | empties
    }
}

/// The exact solver's table of bounds, shared by its threads without locks (a bucket's
/// sequence number tells a torn read), bounded by its size in MiB.
pub struct TranspositionTable {
    buckets: crate::memory::ZeroedSlice<Bucket>,
    /// log2 of the number of buckets.
    index_bits: u32,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = 1 << fitting.ilog2();
        let buckets = crate::memory::ZeroedSlice::new(count);
        TranspositionTable {
            buckets,
            index_bits: count.ilog2(),
            generation: AtomicU64::new(0),
        }
    }

    /// Bytes of memory the table holds.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, board: &Board) -> &Bucket {
        &self.buckets[self.index(board)]
    }

    /// The bucket of `board`: the top bits of two multiplicative hashes xored (each
    /// product's top bits depend on every bit of its half of the board). Two independent
    /// multiplications, not `Board::hash`'s chain of four: the probe waits on this before
    /// it can even ask for memory (results/ffo.md, "Figures once in code comments").
    #[inline(always)]
    fn index(&self, board: &Board) -> usize {
        let h = board.player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ board.opponent.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        // The top bits rotated to the bottom: a table of one bucket takes none.
        (h.rotate_left(self.index_bits) & ((1u64 << self.index_bits) - 1)) as usize
    }

    /// Starts loading the bucket of `board` into the cache: a probe is mostly a wait for
    /// memory, so a node asks for its children's buckets before searching the first.
    #[inline(always)]
    pub fn prefetch(&self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(board) as *const Bucket as *const i8);
        }
    }

    /// The bounds stored for `board`, if any.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Bounds> {
        let bucket = self.bucket(board);
        loop {
            let before = bucket.sequence.load(Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let mut found = None;
            for entry in &bucket.entries {
                let data = entry[2].load(Relaxed);
                if data != 0
                    && entry[0].load(Relaxed) == board.player
                    && entry[1].load(Relaxed) == board.opponent
                {
                    found = Some(Data(data).bounds());
                    break;
                }
            }
            fence(Acquire);
            if bucket.sequence.load(Relaxed) == before {
                return found;
            }
        }
    }

    /// Records `bounds` for `board` searched with `empties` empties at a cost of `nodes`.
    #[inline]
    pub fn store(&self, board: &Board, empties: u32, bounds: Bounds, nodes: u64) {
        let bucket = self.bucket(board);
        let before = bucket.sequence.load(Relaxed);
        if before & 1 == 1
            || bucket
                .sequence
                .compare_exchange(before, before + 1, Acquire, Relaxed)
                .is_err()
        {
            return; // another thread is writing here; this is only a cache
        }
        fence(Release); // the odd sequence is seen before any of the entry's new words
        let generation = self.generation.load(Relaxed) as u8;
        let cost = (64 - nodes.leading_zeros()) as u8;
        let data = Data::new(bounds, empties, generation, cost);
        let slot = bucket
            .entries
            .iter()
            .position(|e| {
                e[0].load(Relaxed) == board.player && e[1].load(Relaxed) == board.opponent
            })
            .unwrap_or_else(|| {
                let priority =
                    |i: usize| Data(bucket.entries[i][2].load(Relaxed)).priority(generation);
                let empty = |i: usize| bucket.entries[i][2].load(Relaxed) == 0;
                if empty(0) || (!empty(1) && priority(0) <= priority(1)) {
                    0
                } else {
                    1
                }
            });
        let entry = &bucket.entries[slot];
        entry[0].store(board.player, Relaxed);
        entry[1].store(board.opponent, Relaxed);
        entry[2].store(data.0, Relaxed);
        bucket.sequence.store(before + 2, Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_exact_boards() {
        let tt = TranspositionTable::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(tt.size_bytes(), 1 << 20);
        assert_eq!(TranspositionTable::new(3).size_bytes(), 2 << 20);
        let b = Board::START;
        assert_eq!(tt.probe(&b), None);
        let bounds = Bounds {
            lower: -64,
            upper: 12,
            best: 37,
            selectivity: 5,
        };
        tt.store(&b, 60, bounds, 1000);
        assert_eq!(tt.probe(&b), Some(bounds));
        assert_eq!(tt.probe(&b.pass()), None);
        let tighter = Bounds {
            lower: 12,
            upper: 12,
            best: 19,
            selectivity: 2,
        };
        tt.store(&b, 60, tighter, 10);
        assert_eq!(tt.probe(&b), Some(tighter));
    }

    #[test]
    fn replaces_the_cheaper_entry_when_full() {
        let tt = TranspositionTable::new(1);
        // Boards landing in one bucket: search for three with the same index.
        let index = |b: &Board| tt.index(b);
        let boards: Vec<Board> = (0u64..)
            .map(|i| Board::new(i << 8, 1))
            .filter(|b| index(b) == index(&Board::new(0, 1)))
            .take(3)
            .collect();
        let bounds = Bounds {
            lower: 0,
            upper: 0,
            best: NO_MOVE,
            selectivity: 5,
        };
        tt.store(&boards[0], 20, bounds, 1 << 20);
        tt.store(&boards[1], 10, bounds, 1 << 5);
        tt.store(&boards[2], 12, bounds, 1 << 6);
        assert!(tt.probe(&boards[0]).is_some(), "the costly entry stays");
        assert!(tt.probe(&boards[1]).is_none(), "the cheap one goes");
        assert!(tt.probe(&boards[2]).is_some());
    }

    #[test]
    fn positions_spread_evenly_over_the_buckets() {
        // Every distinct position 6 plies from the start (boards that differ in a few
        // nearby squares, where a weak hash clusters) into a table of 64 buckets.
        let small = TranspositionTable {
            buckets: crate::memory::ZeroedSlice::new(0),
            index_bits: 6,
            generation: AtomicU64::new(0),
        };
        let mut level = vec![Board::START];
        for _ in 0..6 {
            let mut next: Vec<Board> = level
                .iter()
                .flat_map(|b| crate::bitboard::Bitboard(b.moves()).filter_map(move |sq| b.play(sq)))
                .collect();
            next.sort_by_key(|b| (b.player, b.opponent));
            next.dedup();
            level = next;
        }
        let mut counts = [0usize; 64];
        for board in &level {
            counts[small.index(board)] += 1;
        }
        // A uniform hash gives counts of variance about their mean (Poisson); clustering
        // gives many times that (the low bits of `player` alone: thousands of times).
        let mean = level.len() as f64 / 64.0;
        let variance = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2))
            .sum::<f64>()
            / 64.0;
        assert!(level.len() > 5000, "{} positions", level.len());
        assert!(
            variance < 2.0 * mean,
            "variance {variance} for mean {mean}: {counts:?}"
        );
    }
}
