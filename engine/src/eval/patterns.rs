//! The features of the trained evaluation, as in Logistello and Edax: groups of squares
//! (edges with their X-squares, corners, lines, diagonals) whose contents, read as a
//! base-3 number (0 empty, 1 side to move, 2 opponent), index a table of weights shared by
//! every symmetric copy of the group; then the mobility of each side and a constant.
//!
//! Each pattern is written once, in one orientation; its copies elsewhere on the board are
//! read by applying the board symmetries (`Board::symmetry`) and reading the same squares.
//! A copy that some symmetry maps onto itself (the edge under the a<->h mirror, say) is read
//! once, and the weights of the two readings it could have are tied ([`fold`]), so the
//! evaluation of symmetric boards is equal.

use std::sync::OnceLock;

use crate::board::{symmetry, Board};

/// One pattern: the squares read, digit `i` of the index being `squares[i]`.
pub struct Pattern {
    pub name: &'static str,
    pub squares: &'static [u8],
}

/// The patterns (square indices: a1 = 0, h1 = 7, a2 = 8).
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Pattern {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Pattern {
        name: "line 2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        name: "line 3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        name: "line 4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Pattern {
        name: "diagonal 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        name: "diagonal 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        name: "diagonal 6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        name: "diagonal 5",
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        name: "diagonal 4",
        squares: &[4, 13, 22, 31],
    },
];

/// The squares of `PATTERNS[p]` packed into the low bits of the result, bit `i` from
/// `squares[i]` (shifts and masks, and for diagonals a multiplication that gathers one
/// bit per byte into the top byte).
#[inline(always)]
fn gather(p: usize, x: u64) -> usize {
    let diagonal = |mask: u64, shift: u32| {
        ((x & mask).wrapping_mul(0x0101_0101_0101_0101) >> (56 + shift)) as usize
    };
    match p {
        0 => (x & 0xff | x >> 1 & 0x100 | x >> 5 & 0x200) as usize,
        1 => (x & 7 | x >> 5 & 0x38 | x >> 10 & 0x1c0) as usize,
        2 => (x & 0x1f | x >> 3 & 0x3e0) as usize,
        3 => (x >> 8 & 0xff) as usize,
        4 => (x >> 16 & 0xff) as usize,
        5 => (x >> 24 & 0xff) as usize,
        6 => diagonal(0x8040_2010_0804_0201, 0),
        7 => diagonal(0x0080_4020_1008_0402, 1),
        8 => diagonal(0x0000_8040_2010_0804, 2),
        9 => diagonal(0x0000_0080_4020_1008, 3),
        _ => diagonal(0x0000_0000_8040_2010, 4),
    }
}

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (0 or 1).
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut value, mut power, mut bit) = (0u32, 1u32, 0);
        while bit < 10 {
            value += ((b >> bit) & 1) as u32 * power;
            power *= 3;
            bit += 1;
        }
        table[b] = value as u16;
        b += 1;
    }
    table
};

/// Mobility is counted up to this (33 is the most any reachable position has; beyond 31
/// the data is too thin to weigh).
pub const MOBILITY_CAP: usize = 31;

/// Features read from one board: one per pattern copy, two mobilities, the constant.
pub const FEATURE_COUNT: usize = 46 + 3;

/// Where each pattern's weights start in a phase's table, then the mobility tables and
/// the constant; `TABLE_SIZE` weights in all.
pub const OFFSETS: [usize; 11] = offsets();
pub const MOBILITY_OFFSET: usize = OFFSETS[10] + 81;
pub const CONSTANT_OFFSET: usize = MOBILITY_OFFSET + 2 * (MOBILITY_CAP + 1);
pub const TABLE_SIZE: usize = CONSTANT_OFFSET + 1;

const fn offsets() -> [usize; 11] {
    let mut offsets = [0; 11];
    let mut p = 1;
    while p < 11 {
        offsets[p] = offsets[p - 1] + 3usize.pow(PATTERNS[p - 1].squares.len() as u32);
        p += 1;
    }
    offsets
}

/// The symmetries that read the distinct copies of each pattern, and the weight ties.
struct Geometry {
    /// Per symmetry `k`, the patterns read on the board under `k`.
    reads: [Vec<usize>; 8],
    /// Per table index, the least index whose weight it shares.
    fold: Vec<u32>,
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut reads: [Vec<usize>; 8] = Default::default();
        let mut fold: Vec<u32> = (0..TABLE_SIZE as u32).collect();
        for (p, pattern) in PATTERNS.iter().enumerate() {
            // copy[k][i]: the square that the board under symmetry k has at squares[i].
            let copy = |k: u32| -> Vec<u32> {
                let square_of = |s: u8| (0..64).find(|&t| symmetry(1 << t, k) == 1 << s).unwrap();
                pattern.squares.iter().map(|&s| square_of(s)).collect()
            };
            let mut seen: Vec<Vec<u32>> = Vec::new();
            for k in 0..8 {
                let mut set = copy(k);
                set.sort_unstable();
                if !seen.contains(&set) {
                    seen.push(set);
                    reads[k as usize].push(p);
                }
            }
            // Symmetries mapping the pattern onto itself permute its digits: tie the
            // weights of the permuted indices.
            let own = copy(0);
            let permutations: Vec<Vec<usize>> = (1..8)
                .map(copy)
                .filter(|c| c.iter().all(|s| own.contains(s)) && *c != own)
                .map(|c| {
                    c.iter()
                        .map(|s| own.iter().position(|t| t == s).unwrap())
                        .collect()
                })
                .collect();
            let n = pattern.squares.len();
            for index in 0..3usize.pow(n as u32) {
                let digits: Vec<usize> = (0..n).map(|i| index / 3usize.pow(i as u32) % 3).collect();
                let least = permutations
                    .iter()
                    .map(|perm| (0..n).map(|i| digits[perm[i]] * 3usize.pow(i as u32)).sum())
                    .fold(index, usize::min);
                fold[OFFSETS[p] + index] = (OFFSETS[p] + least) as u32;
            }
        }
        Geometry { reads, fold }
    })
}

/// The table index whose weight `index` shares (itself if none is smaller).
pub fn fold(index: usize) -> usize {
    geometry().fold[index] as usize
}

/// The table indices of the features of `board`.
#[inline]
pub fn features(board: &Board) -> [u32; FEATURE_COUNT] {
    let geometry = geometry();
    let mut out = [0u32; FEATURE_COUNT];
    let mut n = 0;
    for (k, patterns) in geometry.reads.iter().enumerate() {
        let image = board.symmetry(k as u32);
        for &p in patterns {
            let index = TERNARY[gather(p, image.player)] as usize
                + 2 * TERNARY[gather(p, image.opponent)] as usize;
            out[n] = (OFFSETS[p] + index) as u32;
            n += 1;
        }
    }
    let mobility = |b: &Board| b.moves().count_ones().min(MOBILITY_CAP as u32) as usize;
    out[n] = (MOBILITY_OFFSET + mobility(board)) as u32;
    out[n + 1] = (MOBILITY_OFFSET + MOBILITY_CAP + 1 + mobility(&board.pass())) as u32;
    out[n + 2] = CONSTANT_OFFSET as u32;
    debug_assert_eq!(n + 3, FEATURE_COUNT);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_board(seed: u64) -> Board {
        let mut x = seed;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x ^ x >> 29
        };
        let occupied = next() | next();
        let player = occupied & next();
        Board::new(player, occupied & !player)
    }

    #[test]
    fn gather_reads_the_listed_squares_in_order() {
        for seed in 0..200 {
            let x = random_board(seed).player;
            for (p, pattern) in PATTERNS.iter().enumerate() {
                let expected: usize = pattern
                    .squares
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| ((x >> s & 1) as usize) << i)
                    .sum();
                assert_eq!(gather(p, x), expected, "{}", pattern.name);
            }
        }
    }

    #[test]
    fn every_square_is_read_and_copies_are_counted() {
        let reads = &geometry().reads;
        let copies: Vec<usize> = (0..11)
            .map(|p| reads.iter().filter(|r| r.contains(&p)).count())
            .collect();
        assert_eq!(copies, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(copies.iter().sum::<usize>() + 3, FEATURE_COUNT);
    }

    #[test]
    fn folded_features_are_the_same_for_symmetric_boards() {
        for seed in 0..300 {
            let board = random_board(seed);
            let canonical = |b: &Board| {
                let mut f: Vec<usize> = features(b).iter().map(|&i| fold(i as usize)).collect();
                f.sort_unstable();
                f
            };
            let expected = canonical(&board);
            for k in 1..8 {
                assert_eq!(
                    canonical(&board.symmetry(k)),
                    expected,
                    "seed {seed} symmetry {k}"
                );
            }
        }
    }

    #[test]
    fn fold_ties_mirror_images_of_the_edge() {
        // a1 alone (digit 0) and h1 alone (digit 7) are mirror images.
        let a1 = OFFSETS[0] + 1;
        let h1 = OFFSETS[0] + 3usize.pow(7);
        assert_eq!(fold(h1), a1);
        assert_eq!(fold(a1), a1);
        // The 2x5 corner has no symmetry of its own.
        assert_eq!(fold(OFFSETS[2] + 5), OFFSETS[2] + 5);
    }
}
