//! Stable discs: discs no sequence of moves can flip. The opponent's stable discs bound the
//! side to move's final score from above (stability cut-off).
//!
//! As in Edax: edges exactly (a table of every edge configuration), then discs whose four
//! lines are full, then, repeatedly, inner discs that in each direction lie on a full line
//! or next to a stable disc of theirs.

use std::sync::LazyLock;

/// Stable discs of the first player of every 8-square edge configuration (player byte,
/// opponent byte), 64 KiB.
static EDGE_STABILITY: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut table = vec![0u8; 1 << 16];
    for p in 0..256usize {
        for o in 0..256usize {
            if p & o == 0 {
                table[p << 8 | o] = edge_stable(p as u8, o as u8, p as u8);
            }
        }
    }
    table
});

/// The discs of `p` (among `stable`) that stay `p` whatever is played on the edge's
/// empty squares, by either side in any order (a move on an edge may be legal through
/// the other lines, so every empty square is tried).
fn edge_stable(p: u8, o: u8, stable: u8) -> u8 {
    let stable = stable & p;
    let empties = !(p | o);
    if stable == 0 || empties == 0 {
        return stable;
    }
    let mut stable = stable;
    for x in 0..8 {
        if empties >> x & 1 == 1 {
            let (p1, o1) = play_on_edge(p, o, x);
            stable = edge_stable(p1, o1, stable);
            let (o2, p2) = play_on_edge(o, p, x);
            stable = edge_stable(p2, o2, stable);
            if stable == 0 {
                return 0;
            }
        }
    }
    stable
}

/// `p` plays square `x` of an edge: returns (p, o) after the flips along the edge.
fn play_on_edge(mut p: u8, mut o: u8, x: u32) -> (u8, u8) {
    p |= 1 << x;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut y = x as i32 + step;
        while (0..8).contains(&y) && o >> y & 1 == 1 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && p >> y & 1 == 1 {
            p |= run;
            o &= !run;
        }
    }
    (p, o)
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// File a (or h after `>> 7`) as a byte, a1 in bit 0: the multiply gathers the eight
/// bits into the top byte without carries.
fn file_to_byte(x: u64) -> u8 {
    ((x & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// A byte as file a: bit r of byte r is isolated, then moved to bit 0 of its byte by an
/// add that sets bit 7 of exactly the non-zero bytes.
fn byte_to_file(b: u8) -> u64 {
    let spread = (b as u64).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    (spread.wrapping_add(0x7f7f_7f7f_7f7f_7f7f) >> 7) & FILE_A
}

/// Builds the edge table now rather than at the first stability test (40 ms: a solver
/// builds it before timing its first position).
pub fn build_tables() {
    LazyLock::force(&EDGE_STABILITY);
}

/// The exactly stable discs of `p` on the four edges.
pub(crate) fn stable_edges(p: u64, o: u64) -> u64 {
    let table = &*EDGE_STABILITY;
    let edge = |pb: u8, ob: u8| table[(pb as usize) << 8 | ob as usize];
    let rank1 = edge(p as u8, o as u8) as u64;
    let rank8 = (edge((p >> 56) as u8, (o >> 56) as u8) as u64) << 56;
    let file_a = byte_to_file(edge(file_to_byte(p), file_to_byte(o)));
    let file_h = byte_to_file(edge(file_to_byte(p >> 7), file_to_byte(o >> 7))) << 7;
    rank1 | rank8 | file_a | file_h
}

/// The squares from which `2^k` steps of (`file_step`, `rank_step`) leave the board, for
/// k = 0, 1, 2.
const fn leaving(file_step: i32, rank_step: i32) -> [u64; 3] {
    let mut masks = [0u64; 3];
    let mut k = 0;
    while k < 3 {
        let steps = 1 << k;
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8 + file_step * steps;
            let r = sq / 8 + rank_step * steps;
            if f < 0 || f > 7 || r < 0 || r > 7 {
                masks[k as usize] |= 1 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    masks
}

/// Per line through a square (rank, file, a1-h8 diagonal, h1-a8 diagonal): the bit shift
/// of one step and the squares leaving the board forwards and backwards. (Not the eight
/// step directions of [`crate::square::DIRECTIONS`]: a line holds two of them.)
const LINES: [(u32, [u64; 3], [u64; 3]); 4] = [
    (1, leaving(1, 0), leaving(-1, 0)),
    (8, leaving(0, 1), leaving(0, -1)),
    (9, leaving(1, 1), leaving(-1, -1)),
    (7, leaving(-1, 1), leaving(1, -1)),
];

/// For each direction, the squares on lines of that direction that are full. A square is
/// kept while the run of occupied squares from it reaches the board's edge, doubling the
/// run checked at each step (1, 2, 4 squares further), forwards and backwards.
fn full_lines(occupied: u64) -> [u64; 4] {
    LINES.map(|(shift, forward_out, backward_out)| {
        let (mut forward, mut backward) = (occupied, occupied);
        for k in 0..3 {
            let step = shift << k;
            forward &= forward >> step | forward_out[k];
            backward &= backward << step | backward_out[k];
        }
        forward & backward
    })
}

/// Discs of `p` that can never be flipped (a subset of the truly stable ones).
pub fn stable_discs(p: u64, o: u64) -> u64 {
    const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
    let full = full_lines(p | o);
    let inner = p & INNER;
    let mut stable = stable_edges(p, o) | (inner & full[0] & full[1] & full[2] & full[3]);
    if stable == 0 {
        return 0;
    }
    loop {
        let h = stable >> 1 | stable << 1 | full[0];
        let v = stable >> 8 | stable << 8 | full[1];
        let d9 = stable >> 9 | stable << 9 | full[2];
        let d7 = stable >> 7 | stable << 7 | full[3];
        let grown = stable | (h & v & d9 & d7 & inner);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// `LINES`' exit masks by step size, one line per 64-bit lane (for AVX2).
#[cfg(target_arch = "x86_64")]
const fn exits_by_lane(backward: bool) -> [[u64; 4]; 3] {
    let mut lanes = [[0; 4]; 3];
    let mut k = 0;
    while k < 3 {
        let mut d = 0;
        while d < 4 {
            lanes[k][d] = if backward {
                LINES[d].2[k]
            } else {
                LINES[d].1[k]
            };
            d += 1;
        }
        k += 1;
    }
    lanes
}

/// [`stable_discs`] with the four directions in the four 64-bit lanes of AVX2 registers
/// (the full lines and each round of growth at once).
///
/// # Safety
///
/// The CPU must have AVX2: callers not compiled with it check first (as `isa_dispatch!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn stable_discs_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
    static FORWARD_EXITS: [[u64; 4]; 3] = exits_by_lane(false);
    static BACKWARD_EXITS: [[u64; 4]; 3] = exits_by_lane(true);
    // The AND of the four lanes.
    let all = |x: __m256i| {
        let half = _mm_and_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
        (_mm_cvtsi128_si64(half) & _mm_extract_epi64(half, 1)) as u64
    };
    // The shift of one step in each lane's direction (`LINES` order).
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let occupied = _mm256_set1_epi64x((p | o) as i64);
    let (mut forward, mut backward) = (occupied, occupied);
    for k in 0..3 {
        let steps = _mm256_sllv_epi64(step, _mm256_set1_epi64x(k as i64));
        // SAFETY: each row is 4 u64 (unaligned loads).
        let (forward_exit, backward_exit) = unsafe {
            (
                _mm256_loadu_si256(FORWARD_EXITS[k as usize].as_ptr().cast()),
                _mm256_loadu_si256(BACKWARD_EXITS[k as usize].as_ptr().cast()),
            )
        };
        forward = _mm256_and_si256(
            forward,
            _mm256_or_si256(_mm256_srlv_epi64(forward, steps), forward_exit),
        );
        backward = _mm256_and_si256(
            backward,
            _mm256_or_si256(_mm256_sllv_epi64(backward, steps), backward_exit),
        );
    }
    let full = _mm256_and_si256(forward, backward);
    let inner = p & INNER;
    let mut stable = stable_edges(p, o) | (inner & all(full));
    if stable == 0 {
        return 0;
    }
    loop {
        let discs = _mm256_set1_epi64x(stable as i64);
        let held = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srlv_epi64(discs, step),
                _mm256_sllv_epi64(discs, step),
            ),
            full,
        );
        let grown = stable | (all(held) & inner);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// Bounds on the final score of `board`'s side to move from the discs neither side can
/// lose: its own stable discs it keeps, the opponent's it cannot take.
pub fn score_bounds(board: &crate::board::Board) -> (i32, i32) {
    let own = stable_discs(board.player, board.opponent).count_ones() as i32;
    let theirs = stable_discs(board.opponent, board.player).count_ones() as i32;
    (2 * own - 64, 64 - 2 * theirs)
}

/// Below this alpha (by empties), the stability bound cannot cut: skip computing it.
pub fn worth_trying(alpha: i32, empties: u32) -> bool {
    const THRESHOLD: [i32; 61] = [
        99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
        46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64,
        64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    ];
    alpha >= THRESHOLD[empties.min(60) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::game::Game;
    use rand::{rngs::SmallRng, RngExt, SeedableRng};

    /// The exact scores of late positions of random games (plain minimax) lie within the
    /// stability bounds, and some bounds are not the trivial ones.
    #[test]
    fn exact_scores_lie_within_the_stability_bounds() {
        let mut tight = 0;
        for seed in 0..40 {
            let game = Game::random(&mut SmallRng::seed_from_u64(seed), 60);
            for p in game.positions.iter().filter(|p| p.board.empty_count() <= 9) {
                let (lower, upper) = score_bounds(&p.board);
                let exact = crate::reference::minimax(&p.board, -65, 65);
                assert!(lower <= exact && exact <= upper, "{lower} {exact} {upper}");
                tight += usize::from(lower > -64 || upper < 64);
            }
        }
        assert!(tight > 0);
    }

    #[test]
    fn edges_and_packing() {
        // A lone corner is stable; a disc next to an empty corner is not.
        assert_eq!(stable_edges(1, 0), 1);
        assert_eq!(stable_edges(2, 0), 0);
        // A full rank 1 is stable for both colours.
        assert_eq!(stable_edges(0x55, 0xaa), 0x55);
        assert_eq!(stable_edges(0xaa, 0x55), 0xaa);
        for b in 0..=255u8 {
            assert_eq!(file_to_byte(byte_to_file(b)), b);
        }
        assert_eq!(stable_edges(1 << 56 | 1 << 63, 0), 1 << 56 | 1 << 63);
        assert_eq!(stable_edges(1 << 7 | 1 << 15, 0), 1 << 7 | 1 << 15);
    }

    /// `full_lines` against a square-by-square walk of every line.
    #[test]
    fn full_lines_by_walking() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..20_000 {
            // Dense boards, so that full lines of every direction occur.
            let occupied = rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>();
            let full = full_lines(occupied);
            for (d, (df, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
                for sq in 0..64i32 {
                    let on_full_line = [1, -1].iter().all(|&sign| {
                        let (mut f, mut r) = (sq % 8, sq / 8);
                        while (0..8).contains(&f) && (0..8).contains(&r) {
                            if occupied >> (r * 8 + f) & 1 == 0 {
                                return false;
                            }
                            (f, r) = (f + sign * df, r + sign * dr);
                        }
                        true
                    });
                    assert_eq!(
                        full[d] >> sq & 1 == 1,
                        on_full_line,
                        "{occupied:#x} {d} {sq}"
                    );
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_stable_discs_equal_the_scalar_ones() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..100_000 {
            // Dense boards, where lines fill and stable discs grow inwards.
            let occupied = rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>();
            let p = occupied & rng.random::<u64>();
            let o = occupied & !p;
            // SAFETY: the CPU has AVX2 (checked above).
            let fast = unsafe { stable_discs_avx2(p, o) };
            assert_eq!(fast, stable_discs(p, o), "{p:#x} {o:#x}");
        }
    }

    /// Stable discs never change colour in random continuations of random games.
    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut seen = 0u32;
        for _ in 0..3000 {
            let plies = rng.random_range(20..61);
            let game = Game::random(&mut rng, 60);
            let cut = plies.min(game.positions.len() - 1);
            let here = game.positions[cut];
            let board: Board = here.board;
            let (mine, theirs) = (
                stable_discs(board.player, board.opponent),
                stable_discs(board.opponent, board.player),
            );
            seen += (mine | theirs).count_ones();
            for later in &game.positions[cut..] {
                let (p_now, o_now) = if later.side == here.side {
                    (later.board.player, later.board.opponent)
                } else {
                    (later.board.opponent, later.board.player)
                };
                assert_eq!(mine & !p_now, 0, "{board:?}");
                assert_eq!(theirs & !o_now, 0, "{board:?}");
            }
        }
        assert!(seen > 10_000, "the test saw few stable discs: {seen}");
    }
}
