//! Unmoves: the positions one ply before a given one.
//!
//! The side not to move made the last move: it put a disc on some square outside the centre
//! and flipped, in each of the eight directions, a run of the other side's discs that its
//! own disc beyond bracketed. An unmove picks the square and, per direction, a run of the
//! mover's discs (possibly empty) with a mover's disc just beyond, at least one non-empty,
//! and gives the runs back. Each candidate is kept only if playing the move forward from it
//! flips exactly the discs given back (the core's flip decides), so every predecessor is a
//! real position: a run left alone must not be flippable either.

use engine::flip::flip;
use engine::{Bitboard, Board, Move, Square};

use crate::enumerate::Side;

const CENTRE: u64 = 0x0000_0018_1800_0000;

/// A position one ply earlier, with the move that leads from it to the given one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmove {
    /// The earlier board.
    pub board: Board,
    /// Its side to move.
    pub side: Side,
    /// The move from it to the given position.
    pub mv: Move,
}

/// The possible flipped runs of one direction from `sq`: each run of `mover` discs from
/// the square next to `sq` that a `mover` disc closes.
fn runs(sq: Square, mover: u64, d: usize) -> Vec<u64> {
    let mut square = sq;
    let mut run = 0u64;
    let mut found = vec![0];
    loop {
        let Some(next) = square.step(d) else {
            return found;
        };
        square = next;
        let bit = square.bit();
        if mover & bit == 0 {
            return found;
        }
        // This disc can close the run before it.
        if run != 0 {
            found.push(run);
        }
        run |= bit;
    }
}

/// Every position one ply before `board` (side `side` to move) under the rules: moves by
/// the side not to move, and the pass when it applies.
pub fn unmoves(board: &Board, side: Side) -> Vec<Unmove> {
    let mover = board.opponent;
    let other = board.player;
    let mut found = Vec::new();
    for sq in Bitboard(mover & !CENTRE) {
        let choices: Vec<Vec<u64>> = (0..8).map(|d| runs(sq, mover, d)).collect();
        if choices.iter().all(|c| c.len() == 1) {
            continue;
        }
        // Every combination of one run per direction.
        let mut combination = [0usize; 8];
        'combinations: loop {
            let restored = combination
                .iter()
                .zip(&choices)
                .fold(0, |acc, (&i, c)| acc | c[i]);
            if restored != 0 {
                let before = Board::new(mover & !restored & !sq.bit(), other | restored);
                if flip(sq.index(), before.player, before.opponent) == restored {
                    found.push(Unmove {
                        board: before,
                        side: 1 - side,
                        mv: Move::Play(sq),
                    });
                }
            }
            for (i, c) in combination.iter_mut().enumerate() {
                *c += 1;
                if *c < choices[i].len() {
                    continue 'combinations;
                }
                *c = 0;
            }
            break;
        }
    }
    // A pass: the other side had no move, and this side has one (else the game was over).
    let passed = board.pass();
    if passed.moves() == 0 && board.moves() != 0 {
        found.push(Unmove {
            board: passed,
            side: 1 - side,
            mv: Move::Pass,
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::side_index;
    use engine::{Game, Position};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Along games, every ply's predecessor is among the unmoves of its result, and
        /// every unmove leads forward to the position it came from.
        #[test]
        fn unmoves_invert_moves(choices in prop::collection::vec(0usize..32, 0..64)) {
            let game = Game::from_choices(&choices);
            for (i, mv) in game.moves.iter().enumerate() {
                let (before, after) = (game.positions[i], game.positions[i + 1]);
                let side = side_index(after.side);
                let back = unmoves(&after.board, side);
                let expected = Unmove {
                    board: before.board,
                    side: 1 - side,
                    mv: *mv,
                };
                prop_assert!(back.contains(&expected), "ply {}", i);
                for u in back {
                    let from = Position {
                        board: u.board,
                        side: before.side,
                    };
                    prop_assert_eq!(from.play(u.mv).unwrap(), after, "ply {} unmove {}", i, u.mv);
                }
            }
        }
    }
}
