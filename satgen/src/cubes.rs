//! Independent parts of one question, for running apart (GNU parallel, a Slurm array, or
//! `satgen solve --by-ply`): the question holds exactly when some part does.
//!
//! - by first moves: each sequence of the first plies fixed by unit clauses;
//! - by ply: "the position after exactly P plies has the moves", for each P.

use engine::{Board, Move, Square};

use crate::encode::Question;

/// Every sequence of `depth` plies from the start under the variant rules (a pass when
/// forced), the first move f5 when `symmetry_break`: the cubes that split a question.
pub fn prefixes(depth: usize, symmetry_break: bool) -> Vec<Vec<Move>> {
    let mut games = vec![(Vec::new(), Board::START)];
    for ply in 0..depth {
        games = games
            .into_iter()
            .flat_map(|(moves, board): (Vec<Move>, Board)| {
                let next: Vec<(Move, Board)> = if board.moves() == 0 {
                    vec![(Move::Pass, board.pass())]
                } else {
                    engine::Bitboard(board.moves())
                        .filter(|&sq| !(ply == 0 && symmetry_break) || sq == Square::F5)
                        .map(|sq| (Move::Play(sq), board.play(sq).expect("legal")))
                        .collect()
                };
                next.into_iter().map(move |(mv, b)| {
                    let mut moves = moves.clone();
                    moves.push(mv);
                    (moves, b)
                })
            })
            .collect();
    }
    games.into_iter().map(|(moves, _)| moves).collect()
}

/// The cubes by ply of `q`, in the order worth trying: a position with `q.mobility` moves
/// has that many empty squares, so without passes it comes at ply 60 - mobility at the
/// latest, and the fullest boards have the most room for moves (the known witnesses of 33
/// are at plies 26 and 27); the plies beyond need passes and come last. Plies the side
/// asked for does not move at are left out (the side to move is fixed by the ply).
pub fn by_ply(q: &Question) -> Vec<Question> {
    let latest = 60usize.saturating_sub(q.mobility).min(q.plies);
    (0..=latest)
        .rev()
        .chain(latest + 1..=q.plies)
        .filter(|&ply| q.side.allows(ply))
        .map(|ply| Question {
            plies: ply,
            exact_ply: true,
            ..*q
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Encoding, SideFilter};

    #[test]
    fn prefixes_are_the_games_after_f5() {
        let counts: Vec<usize> = (1..=4).map(|d| prefixes(d, true).len()).collect();
        assert_eq!(counts, [1, 3, 14, 61]); // perft 1-4 over 4 symmetric first moves
        assert_eq!(prefixes(3, false).len(), 56);
    }

    #[test]
    fn plies_from_the_last_without_passes_then_the_rest() {
        let q = Question {
            plies: 42,
            mobility: 33,
            side: SideFilter::White,
            symmetry_break: true,
            encoding: Encoding::Rays,
            exact_ply: false,
        };
        let plies: Vec<usize> = by_ply(&q).iter().map(|c| c.plies).collect();
        let expected: Vec<usize> = (0..=27)
            .rev()
            .chain(28..=42)
            .filter(|p| p % 2 == 1)
            .collect();
        assert_eq!(plies, expected);
        assert!(by_ply(&q).iter().all(|c| c.exact_ply && c.mobility == 33));
    }
}
