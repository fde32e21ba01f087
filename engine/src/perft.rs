//! Perft: counting the games of a given length, the standard check of move generation.
//!
//! Convention of OEIS A124004: a pass is a ply; a game that ends before the last ply is not
//! a leaf but is counted in `finished`, so `leaves + finished` is the number of games of at
//! most `depth` plies that either end or last that long.

use std::ops::{Add, AddAssign};

use std::collections::HashMap;
use std::ops::Mul;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{fence, AtomicBool, AtomicU64};

use rayon::prelude::*;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::cpu::Isa;
use crate::memory::{Zeroable, ZeroedSlice};
use crate::{isa_dispatch, isa_versions};

/// What perft counts at one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PerftCounts {
    /// Positions after exactly `depth` plies.
    pub leaves: u64,
    /// Leaves whose last ply was a pass.
    pub passes: u64,
    /// Games that ended (neither side could move) before `depth` plies.
    pub finished: u64,
}

impl Add for PerftCounts {
    type Output = PerftCounts;
    fn add(self, rhs: PerftCounts) -> PerftCounts {
        PerftCounts {
            leaves: self.leaves + rhs.leaves,
            passes: self.passes + rhs.passes,
            finished: self.finished + rhs.finished,
        }
    }
}

impl AddAssign for PerftCounts {
    fn add_assign(&mut self, rhs: PerftCounts) {
        *self = *self + rhs;
    }
}

/// The counts of `games` copies of a subtree.
impl Mul<u64> for PerftCounts {
    type Output = PerftCounts;
    fn mul(self, games: u64) -> PerftCounts {
        PerftCounts {
            leaves: self.leaves * games,
            passes: self.passes * games,
            finished: self.finished * games,
        }
    }
}

impl std::iter::Sum for PerftCounts {
    fn sum<I: Iterator<Item = PerftCounts>>(iter: I) -> PerftCounts {
        iter.fold(PerftCounts::default(), Add::add)
    }
}

const LEAF: PerftCounts = PerftCounts {
    leaves: 1,
    passes: 0,
    finished: 0,
};
const PASS_LEAF: PerftCounts = PerftCounts {
    leaves: 1,
    passes: 1,
    finished: 0,
};
const FINISHED: PerftCounts = PerftCounts {
    leaves: 0,
    passes: 0,
    finished: 1,
};

/// Counts games of `depth` plies from `board`, on the calling thread, without a table: the
/// reference the hashed count is held to.
pub fn perft(board: &Board, depth: u32) -> PerftCounts {
    perft_with(Isa::detect(), board, depth)
}

/// [`perft`] compiled for instruction set `isa`, which this CPU must run.
pub fn perft_with(isa: Isa, board: &Board, depth: u32) -> PerftCounts {
    if depth == 0 {
        return LEAF;
    }
    isa_dispatch!(isa, count(board, depth))
}

/// Counts games of `depth` plies from `board` on the calling thread, looking up and storing
/// the counts of subtrees in `table`.
pub fn perft_hashed(board: &Board, depth: u32, table: &CountTable) -> PerftCounts {
    if depth == 0 {
        return LEAF;
    }
    isa_dispatch!(Isa::detect(), count_hashed(board, depth, table))
}

/// A count split at a ply: the distinct positions there up to the eight symmetries (counts
/// do not change under them, nor with the colour of the side to move), each with the number
/// of games that reach it, and the games that ended sooner. The subtrees are what threads
/// and shards share out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The plies counted in all.
    pub depth: u32,
    /// The plies enumerated before the subtrees.
    pub plies: u32,
    /// Least symmetric images, sorted, with the number of games reaching each.
    pub subtrees: Vec<(Board, u64)>,
    /// Games that ended before the split ply.
    pub finished: u64,
}

impl Split {
    /// A count of `depth >= 1` plies from `board`, split `plies` plies after it or sooner:
    /// at least one ply stays below the split, so that a leaf's last ply (a pass or not)
    /// is seen inside its subtree's count.
    pub fn new(board: &Board, depth: u32, plies: u32) -> Split {
        assert!(depth >= 1, "a count of no plies has nothing to split");
        let plies = plies.min(depth - 1);
        let mut level = HashMap::from([(board.canonical(), 1u64)]);
        let mut finished = 0;
        for _ in 0..plies {
            let mut next = HashMap::with_capacity(level.len() * 8);
            for (board, games) in level {
                let moves = board.moves();
                if moves == 0 {
                    let passed = board.pass();
                    if passed.moves() == 0 {
                        finished += games;
                    } else {
                        *next.entry(passed.canonical()).or_insert(0) += games;
                    }
                }
                for sq in Bitboard(moves) {
                    let child = board.play_flips(sq, board.flips(sq));
                    *next.entry(child.canonical()).or_insert(0) += games;
                }
            }
            level = next;
        }
        let mut subtrees: Vec<(Board, u64)> = level.into_iter().collect();
        subtrees.sort_unstable();
        Split {
            depth,
            plies,
            subtrees,
            finished,
        }
    }

    /// Shard `index` of `count` (1-based): every `count`-th subtree from the `index`-th, and
    /// the finished games in the first shard only, so that the shards add up to the whole.
    pub fn shard(self, index: usize, count: usize) -> Split {
        Split {
            subtrees: self
                .subtrees
                .into_iter()
                .skip(index - 1)
                .step_by(count)
                .collect(),
            finished: if index == 1 { self.finished } else { 0 },
            ..self
        }
    }

    /// The counts, the subtrees counted in parallel on the current rayon pool over the
    /// shared `table`; `done` is called after each subtree. `None` when `stop` was raised
    /// before every subtree was counted.
    pub fn count(
        &self,
        table: &CountTable,
        stop: &AtomicBool,
        done: &(dyn Fn() + Sync),
    ) -> Option<PerftCounts> {
        let below = self.depth - self.plies;
        let counts: Option<PerftCounts> = self
            .subtrees
            .par_iter()
            .map(|(subtree, games)| {
                if stop.load(Relaxed) {
                    return None;
                }
                let counts = perft_hashed(subtree, below, table) * *games;
                done();
                Some(counts)
            })
            .sum();
        Some(counts? + FINISHED * self.finished)
    }
}

/// Counts of subtrees by position and remaining depth, shared by threads: a count is a
/// function of the least symmetric image of the board and the depth, so every hit is exact
/// (the whole board is the key; nothing is trusted to a hash). Buckets of three entries
/// under a sequence lock: a reader that sees a writer at work takes it as a miss, and a
/// writer that finds another writing drops its entry, so nobody waits.
pub struct CountTable {
    buckets: ZeroedSlice<Bucket>,
}

/// Entries are stored only at this remaining depth and above: below it a subtree costs
/// less to count than to look up.
const HASHED_DEPTH: u32 = 3;

const ENTRIES: usize = 3;
const WORDS: usize = 5;

/// A version (odd while written) and three entries of five words: player, opponent, leaves,
/// passes, and finished games with the remaining depth in the top byte (0: empty).
#[repr(align(128))]
struct Bucket {
    version: AtomicU64,
    words: [AtomicU64; ENTRIES * WORDS],
}

// SAFETY: atomics only; all zero is an idle bucket of empty entries.
unsafe impl Zeroable for Bucket {}

const DEPTH_SHIFT: u32 = 56;

impl CountTable {
    /// A table of at most `mb` MiB (a power of two of buckets, at least one).
    pub fn new(mb: u64) -> CountTable {
        let fit = ((mb << 20) / std::mem::size_of::<Bucket>() as u64).max(1);
        let count = 1usize << fit.ilog2();
        CountTable {
            buckets: ZeroedSlice::new(count),
        }
    }

    fn bucket(&self, key: &Board, depth: u32) -> &Bucket {
        let hash = key.hash() ^ (depth as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.buckets[hash as usize & (self.buckets.len() - 1)]
    }

    fn probe(&self, key: &Board, depth: u32) -> Option<PerftCounts> {
        let bucket = self.bucket(key, depth);
        let version = bucket.version.load(Acquire);
        if version & 1 != 0 {
            return None;
        }
        let tagged_depth = (depth as u64) << DEPTH_SHIFT;
        let found = bucket.words.chunks_exact(WORDS).find_map(|entry| {
            let tagged = entry[4].load(Relaxed);
            (tagged & !((1 << DEPTH_SHIFT) - 1) == tagged_depth
                && entry[0].load(Relaxed) == key.player
                && entry[1].load(Relaxed) == key.opponent)
                .then(|| PerftCounts {
                    leaves: entry[2].load(Relaxed),
                    passes: entry[3].load(Relaxed),
                    finished: tagged & ((1 << DEPTH_SHIFT) - 1),
                })
        });
        fence(Acquire);
        (bucket.version.load(Relaxed) == version)
            .then_some(found)
            .flatten()
    }

    fn store(&self, key: &Board, depth: u32, counts: PerftCounts) {
        debug_assert!(counts.finished < 1 << DEPTH_SHIFT);
        let bucket = self.bucket(key, depth);
        let version = bucket.version.load(Relaxed);
        if version & 1 != 0
            || bucket
                .version
                .compare_exchange(version, version + 1, Acquire, Relaxed)
                .is_err()
        {
            return;
        }
        fence(Release);
        // The entry for the fewest games is replaced (an empty one counts none).
        let entry = bucket
            .words
            .chunks_exact(WORDS)
            .min_by_key(|entry| entry[2].load(Relaxed))
            .expect("three entries");
        entry[0].store(key.player, Relaxed);
        entry[1].store(key.opponent, Relaxed);
        entry[2].store(counts.leaves, Relaxed);
        entry[3].store(counts.passes, Relaxed);
        entry[4].store((depth as u64) << DEPTH_SHIFT | counts.finished, Relaxed);
        bucket.version.store(version + 2, Release);
    }
}

isa_versions!(
    /// The recursion, `depth >= 1`; the last two plies are counted without making the moves
    /// of the last one (bulk counting: the leaves under a node are its number of moves).
    fn count(board: &Board, depth: u32) -> PerftCounts {
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            return if passed.moves() == 0 {
                FINISHED
            } else if depth == 1 {
                PASS_LEAF
            } else {
                count(&passed, depth - 1)
            };
        }
        if depth == 1 {
            return PerftCounts {
                leaves: moves.count_ones() as u64,
                ..PerftCounts::default()
            };
        }
        let mut total = PerftCounts::default();
        for sq in Bitboard(moves) {
            let child = board.play_flips(sq, flip(sq.index(), board.player, board.opponent));
            if depth == 2 {
                let child_moves = child.moves();
                if child_moves != 0 {
                    total.leaves += child_moves.count_ones() as u64;
                } else if child.pass().moves() != 0 {
                    total += PASS_LEAF;
                } else {
                    total += FINISHED;
                }
            } else {
                total += count(&child, depth - 1);
            }
        }
        total
    }

    /// [`count`] with the subtrees of `HASHED_DEPTH` plies and more looked up in `table`
    /// and stored there, `depth >= 1`.
    fn count_hashed(board: &Board, depth: u32, table: &CountTable) -> PerftCounts {
        if depth < HASHED_DEPTH {
            return count(board, depth);
        }
        let key = board.canonical();
        if let Some(counts) = table.probe(&key, depth) {
            return counts;
        }
        let moves = board.moves();
        let total = if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return FINISHED;
            }
            count_hashed(&passed, depth - 1, table)
        } else {
            let mut total = PerftCounts::default();
            for sq in Bitboard(moves) {
                let child = board.play_flips(sq, flip(sq.index(), board.player, board.opponent));
                total += count_hashed(&child, depth - 1, table);
            }
            total
        };
        table.store(&key, depth, total);
        total
    }
);
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_plies_from_the_start() {
        let leaves: Vec<u64> = (0..=6).map(|d| perft(&Board::START, d).leaves).collect();
        assert_eq!(leaves, [1, 4, 12, 56, 244, 1396, 8200]);
        for isa in Isa::available() {
            assert_eq!(perft_with(isa, &Board::START, 8).leaves, 390216, "{isa:?}");
        }
    }

    /// Positions along random games, passes and finished games among them.
    fn random_positions(count: usize) -> Vec<Board> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(34);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut board = Board::START;
            let stop = rng.random_range(0..60);
            for ply in 0..60 {
                let moves: Vec<_> = Bitboard(board.moves()).collect();
                if ply == stop || board.is_game_over() {
                    break;
                }
                board = match moves.len() {
                    0 => board.pass(),
                    n => board.play(moves[rng.random_range(0..n)]).expect("legal"),
                };
            }
            positions.push(board);
        }
        positions
    }

    #[test]
    fn hashed_counts_equal_plain_ones() {
        // A table of one bucket: entries are replaced all the time.
        let mut seen = PerftCounts::default();
        for mb in [0, 2] {
            let table = CountTable::new(mb);
            for board in random_positions(40) {
                for depth in 0..=5 {
                    let plain = perft(&board, depth);
                    assert_eq!(
                        perft_hashed(&board, depth, &table),
                        plain,
                        "{board:?} depth {depth} table {mb} MiB"
                    );
                    seen += plain;
                }
            }
        }
        assert!(seen.passes > 0 && seen.finished > 0, "{seen:?}");
    }

    #[test]
    fn shards_add_up_to_the_whole() {
        let stop = AtomicBool::new(false);
        for board in random_positions(10).into_iter().chain([Board::START]) {
            let depth = 6;
            let whole = perft(&board, depth);
            for plies in [0, 2, 4, 9] {
                let table = CountTable::new(2);
                let split = Split::new(&board, depth, plies);
                assert_eq!(split.plies, plies.min(depth - 1));
                assert_eq!(split.count(&table, &stop, &|| ()), Some(whole));
                let shards: PerftCounts = (1..=3)
                    .map(|i| {
                        let shard = split.clone().shard(i, 3);
                        shard.count(&CountTable::new(2), &stop, &|| ()).unwrap()
                    })
                    .sum();
                assert_eq!(shards, whole, "{board:?} split at {plies}");
            }
        }
    }

    #[test]
    fn a_raised_stop_counts_nothing() {
        let split = Split::new(&Board::START, 8, 4);
        let counted = split.count(&CountTable::new(2), &AtomicBool::new(true), &|| ());
        assert_eq!(counted, None);
    }

    #[test]
    fn passes_and_finished_games() {
        // Two discs far apart: neither side can move.
        let over = Board::new(1, 1 << 63);
        assert_eq!(perft(&over, 1), FINISHED);
        assert_eq!(perft(&over, 3), FINISHED);
        // The side to move on b1 cannot move; the other, on a1, can play c1.
        let must_pass = Board::new(0b10, 0b01);
        assert!(must_pass.must_pass());
        assert_eq!(perft(&must_pass, 1), PASS_LEAF);
    }
}
