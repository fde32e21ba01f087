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

/// File a (or h after `>> 7`) as a byte, a1 in bit 0.
fn file_to_byte(x: u64) -> u8 {
    (0..8).fold(0, |acc, r| acc | ((x >> (8 * r) & 1) as u8) << r)
}

fn byte_to_file(b: u8) -> u64 {
    (0..8).fold(0, |acc, r| acc | ((b >> r & 1) as u64) << (8 * r))
}

/// The exactly stable discs of `p` on the four edges.
fn stable_edges(p: u64, o: u64) -> u64 {
    let table = &*EDGE_STABILITY;
    let edge = |pb: u8, ob: u8| table[(pb as usize) << 8 | ob as usize];
    let rank1 = edge(p as u8, o as u8) as u64;
    let rank8 = (edge((p >> 56) as u8, (o >> 56) as u8) as u64) << 56;
    let file_a = byte_to_file(edge(file_to_byte(p), file_to_byte(o)));
    let file_h = byte_to_file(edge(file_to_byte(p >> 7), file_to_byte(o >> 7))) << 7;
    rank1 | rank8 | file_a | file_h
}

/// Lines of each direction (rank, file, a1-h8 diagonals, h1-a8 diagonals).
static LINES: LazyLock<[Vec<u64>; 4]> = LazyLock::new(|| {
    let ranks = (0..8).map(|r| 0xffu64 << (8 * r)).collect();
    let files = (0..8).map(|f| 0x0101_0101_0101_0101u64 << f).collect();
    let diagonal = |start_file: i32, start_rank: i32, df: i32| {
        let (mut f, mut r, mut line) = (start_file, start_rank, 0u64);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            line |= 1 << (r * 8 + f);
            f += df;
            r += 1;
        }
        line
    };
    let d9 = (0..8)
        .map(|f| diagonal(f, 0, 1))
        .chain((1..8).map(|r| diagonal(0, r, 1)))
        .collect();
    let d7 = (0..8)
        .map(|f| diagonal(f, 0, -1))
        .chain((1..8).map(|r| diagonal(7, r, -1)))
        .collect();
    [ranks, files, d9, d7]
});

/// For each direction, the squares on lines of that direction that are full.
fn full_lines(occupied: u64) -> [u64; 4] {
    LINES.each_ref().map(|lines| {
        lines
            .iter()
            .filter(|&&line| occupied & line == line)
            .fold(0, |acc, line| acc | line)
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
