//! From a model back to a game, replayed by the core under the variant rules; nothing of
//! the model is trusted beyond the moves it names.

use engine::{Board, Move, Square};
use rustsat::types::Lit;

use crate::encode::Layout;

/// A game and the position of largest mobility in it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Decoded {
    #[serde(serialize_with = "moves_text")]
    pub moves: Vec<Move>,
    /// The first ply at which the largest mobility is reached, and that mobility.
    pub ply: usize,
    pub mobility: u32,
    #[serde(skip)]
    pub board: Board,
}

fn moves_text<S: serde::Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&engine::game::format_moves(moves))
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("ply {ply}: the model sets {count} move variables, not one")]
    NotOneMove { ply: usize, count: usize },
    #[error("ply {ply}: {mv} is not legal under the variant rules")]
    Illegal { ply: usize, mv: Move },
    #[error("the game reaches mobility {found}, not the {wanted} asked")]
    TooLow { found: u32, wanted: u32 },
}

/// Plays `moves` from the start: a pass only without a legal move (also after the game
/// would normally end). The positions after each ply, from the side to move.
pub fn replay_variant(moves: &[Move]) -> Result<Vec<Board>, DecodeError> {
    let mut boards = vec![Board::START];
    for (ply, &mv) in moves.iter().enumerate() {
        let board = boards[ply];
        let next = match mv {
            Move::Pass if board.moves() == 0 => Some(board.pass()),
            Move::Pass => None,
            Move::Play(sq) if board.moves() >> sq.index() & 1 == 1 => board.play(sq),
            Move::Play(_) => None,
        };
        boards.push(next.ok_or(DecodeError::Illegal { ply, mv })?);
    }
    Ok(boards)
}

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

/// The game a model describes, checked by replay to reach at least `wanted` moves.
pub fn decode(layout: &Layout, model: &[bool], wanted: u32) -> Result<Decoded, DecodeError> {
    let value = |l: Lit| model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
    let mut moves = Vec::new();
    for (ply, block) in layout.moves.iter().enumerate() {
        let set: Vec<usize> = (0..65).filter(|&i| value(block[i])).collect();
        let [chosen] = set[..] else {
            return Err(DecodeError::NotOneMove {
                ply,
                count: set.len(),
            });
        };
        moves.push(if chosen == 64 {
            Move::Pass
        } else {
            Move::Play(Square::new(chosen as u32).expect("a square index"))
        });
    }
    let boards = replay_variant(&moves)?;
    let (ply, board) = boards
        .iter()
        .enumerate()
        .max_by_key(|(i, b)| (b.mobility(), std::cmp::Reverse(*i)))
        .expect("the start at least");
    if board.mobility() < wanted {
        return Err(DecodeError::TooLow {
            found: board.mobility(),
            wanted,
        });
    }
    moves.truncate(ply);
    Ok(Decoded {
        moves,
        ply,
        mobility: board.mobility(),
        board: *board,
    })
}
