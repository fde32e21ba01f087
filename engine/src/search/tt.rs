//! Transposition tables: what searches know of boards already searched.
//!
//! Each entry keeps the whole board (so a hit is never a different position: exact answers
//! stay exact) and one word of data, packed by the table's kind of [`Entry`]: the exact
//! solver's bounds ([`Exact`]), or the midgame's depth-tagged estimates. Buckets of two
//! entries fill one 64-byte cache line together with a sequence counter that makes the
//! table safe to share between threads without locks on the read path: a writer that finds
//! the bucket busy drops its store (it is only a cache), a reader retries while a write is
//! under way, and a torn entry is never returned. A store for a board the bucket holds
//! overwrites it; otherwise it replaces the entry of lower [`Entry::priority`].

use std::marker::PhantomData;
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

/// What a table keeps of a board besides the board, packed into one word.
pub trait Entry {
    /// What a probe gives back.
    type Found;
    /// The word kept for this entry, stored in search `generation`: never 0, which marks an
    /// empty slot.
    fn pack(&self, generation: u8) -> u64;
    /// What the word `word` holds.
    fn unpack(word: u64) -> Self::Found;
    /// How much the word `word` is worth keeping in search `generation`: of a bucket's two
    /// entries, a store replaces the one with the lower priority.
    fn priority(word: u64, generation: u8) -> u32;
}

/// The exact solver's entry: bounds found at `empties` empties with `nodes` nodes.
/// Packed: lower+64 (8 bits), upper+64 (8), best move (8), empties (8), generation (8),
/// log2 of nodes spent (8), selectivity (8).
#[derive(Clone, Copy, Debug)]
pub struct Exact {
    /// The bounds found.
    pub bounds: Bounds,
    /// Empty squares of the board.
    pub empties: u32,
    /// Nodes the search of the board took.
    pub nodes: u64,
}

impl Entry for Exact {
    type Found = Bounds;

    #[inline(always)]
    fn pack(&self, generation: u8) -> u64 {
        let (bounds, cost) = (self.bounds, 64 - self.nodes.leading_zeros());
        (bounds.lower + 64) as u64
            | ((bounds.upper + 64) as u64) << 8
            | (bounds.best as u64) << 16
            | (self.empties as u64) << 24
            | (generation as u64) << 32
            | (cost as u64) << 40
            | (bounds.selectivity as u64) << 48
            | 1 << 63
    }

    #[inline(always)]
    fn unpack(word: u64) -> Bounds {
        Bounds {
            lower: (word & 0xff) as i32 - 64,
            upper: (word >> 8 & 0xff) as i32 - 64,
            best: (word >> 16 & 0xff) as u8,
            selectivity: (word >> 48 & 0xff) as u8,
        }
    }

    /// Current generation first, then the costlier search, then more empties.
    #[inline(always)]
    fn priority(word: u64, generation: u8) -> u32 {
        let current = ((word >> 32) as u8 == generation) as u32;
        let cost = (word >> 40 & 0xff) as u32;
        let empties = (word >> 24 & 0xff) as u32;
        current << 16 | cost << 8 | empties
    }
}

/// A table of entries of kind `E` (by default the exact solver's bounds), shared by its
/// threads without locks (a bucket's sequence number tells a torn read), bounded by its
/// size in MiB.
pub struct TranspositionTable<E = Exact> {
    buckets: crate::memory::ZeroedSlice<Bucket>,
    /// log2 of the number of buckets.
    index_bits: u32,
    generation: AtomicU64,
    /// The entries' kind (`fn` so that the table is `Send` and `Sync` whatever `E` is).
    entries: PhantomData<fn(E) -> E>,
}

impl<E: Entry> TranspositionTable<E> {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets).
    pub fn new(megabytes: usize) -> TranspositionTable<E> {
        let bytes = megabytes.max(1) << 20;
        let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = 1 << fitting.ilog2();
        let buckets = crate::memory::ZeroedSlice::new(count);
        TranspositionTable {
            buckets,
            index_bits: count.ilog2(),
            generation: AtomicU64::new(0),
            entries: PhantomData,
        }
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

    /// What is stored for `board`, if anything.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<E::Found> {
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
                    found = Some(E::unpack(data));
                    break;
                }
            }
            fence(Acquire);
            if bucket.sequence.load(Relaxed) == before {
                return found;
            }
        }
    }

    /// Records `entry` for `board`.
    #[inline]
    pub fn store(&self, board: &Board, entry: E) {
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
        let data = entry.pack(generation);
        let slot = bucket
            .entries
            .iter()
            .position(|e| {
                e[0].load(Relaxed) == board.player && e[1].load(Relaxed) == board.opponent
            })
            .unwrap_or_else(|| {
                let priority =
                    |i: usize| E::priority(bucket.entries[i][2].load(Relaxed), generation);
                let empty = |i: usize| bucket.entries[i][2].load(Relaxed) == 0;
                if empty(0) || (!empty(1) && priority(0) <= priority(1)) {
                    0
                } else {
                    1
                }
            });
        let slot = &bucket.entries[slot];
        slot[0].store(board.player, Relaxed);
        slot[1].store(board.opponent, Relaxed);
        slot[2].store(data, Relaxed);
        bucket.sequence.store(before + 2, Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_exact_boards() {
        let tt: TranspositionTable = TranspositionTable::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(tt.buckets.len() * 64, 1 << 20);
        assert_eq!(
            TranspositionTable::<Exact>::new(3).buckets.len() * 64,
            2 << 20
        );
        let b = Board::START;
        assert_eq!(tt.probe(&b), None);
        let bounds = Bounds {
            lower: -64,
            upper: 12,
            best: 37,
            selectivity: 5,
        };
        tt.store(
            &b,
            Exact {
                bounds,
                empties: 60,
                nodes: 1000,
            },
        );
        assert_eq!(tt.probe(&b), Some(bounds));
        assert_eq!(tt.probe(&b.pass()), None);
        let tighter = Bounds {
            lower: 12,
            upper: 12,
            best: 19,
            selectivity: 2,
        };
        tt.store(
            &b,
            Exact {
                bounds: tighter,
                empties: 60,
                nodes: 10,
            },
        );
        assert_eq!(tt.probe(&b), Some(tighter));
    }

    #[test]
    fn replaces_the_cheaper_entry_when_full() {
        let tt: TranspositionTable = TranspositionTable::new(1);
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
        tt.store(
            &boards[0],
            Exact {
                bounds,
                empties: 20,
                nodes: 1 << 20,
            },
        );
        tt.store(
            &boards[1],
            Exact {
                bounds,
                empties: 10,
                nodes: 1 << 5,
            },
        );
        tt.store(
            &boards[2],
            Exact {
                bounds,
                empties: 12,
                nodes: 1 << 6,
            },
        );
        assert!(tt.probe(&boards[0]).is_some(), "the costly entry stays");
        assert!(tt.probe(&boards[1]).is_none(), "the cheap one goes");
        assert!(tt.probe(&boards[2]).is_some());
    }

    #[test]
    fn positions_spread_evenly_over_the_buckets() {
        // Every distinct position 6 plies from the start (boards that differ in a few
        // nearby squares, where a weak hash clusters) into a table of 64 buckets.
        let small = TranspositionTable::<Exact> {
            buckets: crate::memory::ZeroedSlice::new(0),
            index_bits: 6,
            generation: AtomicU64::new(0),
            entries: PhantomData,
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
