//! The rules walked square by square: slow, obvious, and the oracle every fast routine is
//! tested against.

use crate::board::Board;
use crate::square::DIRECTIONS;

/// Discs flipped when the side with discs `p` plays on the empty square `sq` against `o`.
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    assert!(
        sq < 64 && (p | o) >> sq & 1 == 0,
        "square {sq} is not empty"
    );
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut flipped = 0;
    for (df, dr) in DIRECTIONS {
        let mut run = 0u64;
        let (mut f, mut r) = (file + df, rank + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    flipped |= run;
                }
                break;
            }
            f += df;
            r += dr;
        }
    }
    flipped
}

/// Empty squares where playing flips at least one disc.
pub fn moves(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&sq| (p | o) >> sq & 1 == 0 && flips(p, o, sq) != 0)
        .fold(0, |acc, sq| acc | 1 << sq)
}

/// The largest mobility (legal moves of the side to move) over every position within
/// `plies` plies of `board`, by plain depth-first search over every game: no symmetry, no
/// tables. A forced pass is a ply; the search stops where both sides must pass.
pub fn max_mobility(board: &Board, plies: u32) -> u32 {
    let here = board.mobility();
    if plies == 0 || board.is_game_over() {
        return here;
    }
    let children: Vec<Board> = if board.moves() == 0 {
        vec![board.pass()]
    } else {
        board
            .legal_moves()
            .map(|sq| board.play(sq).expect("a legal move"))
            .collect()
    };
    children
        .iter()
        .map(|c| max_mobility(c, plies - 1))
        .fold(here, u32::max)
}

/// The largest mobility over the positions exactly `plies` plies after `board`, by plain
/// depth-first search: a forced pass is a ply, and a game that ends sooner counts 0.
pub fn max_mobility_exactly(board: &Board, plies: u32) -> u32 {
    match (plies, board.moves()) {
        (0, _) => board.mobility(),
        (_, 0) if board.pass().moves() == 0 => 0,
        (_, 0) => max_mobility_exactly(&board.pass(), plies - 1),
        (_, _) => board
            .legal_moves()
            .map(|sq| max_mobility_exactly(&board.play(sq).expect("a legal move"), plies - 1))
            .max()
            .unwrap_or(0),
    }
}

/// The exact score of `board` in the window (`alpha`, `beta`), fail-soft: plain negamax
/// with alpha-beta over the core's rules; no table, no ordering, no code shared with the
/// solver.
pub fn minimax(board: &Board, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return if board.pass().moves() == 0 {
            board.final_score()
        } else {
            -minimax(&board.pass(), -beta, -alpha)
        };
    }
    let mut best = -65;
    for sq in moves {
        let score = -minimax(&board.play(sq).unwrap(), -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}
