//! From a model back to a game, replayed by the core under the variant rules; nothing of
//! the model is trusted beyond the moves it names.

use engine::{Board, Move, Square};
use rustsat::types::Lit;

use crate::encode::{Layout, SideFilter};

/// A game and the first position in it with the mobility asked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Decoded {
    /// The game's moves (passes included).
    #[serde(serialize_with = "moves_text")]
    pub moves: Vec<Move>,
    /// The ply of that position.
    pub ply: usize,
    /// Its mobility.
    pub mobility: u32,
    /// The position.
    #[serde(skip)]
    pub board: Board,
}

fn moves_text<S: serde::Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&engine::game::format_moves(moves))
}

/// Why a model is not trusted: the game it describes breaks the rules or misses the
/// question.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A ply with no move, or several.
    #[error("ply {ply}: the model sets {count} move variables, not one")]
    NotOneMove {
        /// The ply.
        ply: usize,
        /// Move variables set there.
        count: usize,
    },
    /// A move the rules do not allow there.
    #[error("ply {ply}: {mv} is not legal under the variant rules")]
    Illegal {
        /// The ply.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// Fewer legal moves than asked at every position of the game.
    #[error("the game reaches mobility {found}, not the {wanted} asked")]
    TooLow {
        /// The most it reaches.
        found: u32,
        /// What was asked.
        wanted: u32,
    },
    /// The game replayed does not end at the target.
    #[error("the game does not end at the target position")]
    WrongPosition,
}

/// The position after `mv` under the variant rules (a pass only without a legal move,
/// also after the game would normally end), or `None` if it is illegal.
fn play_variant(board: &Board, mv: Move) -> Option<Board> {
    match mv {
        Move::Pass if board.moves() == 0 => Some(board.pass()),
        Move::Pass => None,
        Move::Play(sq) if board.moves() >> sq.index() & 1 == 1 => board.play(sq),
        Move::Play(_) => None,
    }
}

/// Plays `moves` from the start under the variant rules. The positions after each ply,
/// from the side to move.
pub fn replay_variant(moves: &[Move]) -> Result<Vec<Board>, DecodeError> {
    let mut boards = vec![Board::START];
    for (ply, &mv) in moves.iter().enumerate() {
        let next = play_variant(&boards[ply], mv);
        boards.push(next.ok_or(DecodeError::Illegal { ply, mv })?);
    }
    Ok(boards)
}

/// The game a model describes, replayed move by move up to the first position (of the
/// side `side` asks for) with at least `wanted` moves; the plies after it are free in the
/// encoding and not read.
pub fn decode(
    layout: &Layout,
    model: &[bool],
    wanted: u32,
    side: SideFilter,
) -> Result<Decoded, DecodeError> {
    let mut most = 0;
    let found = replay_model(layout, model, |ply, board| {
        if !side.allows(ply) {
            return false;
        }
        most = most.max(board.mobility());
        board.mobility() >= wanted
    })?;
    found.ok_or(DecodeError::TooLow {
        found: most,
        wanted,
    })
}

/// The game a model describes up to exactly `ply` plies (a question with `exact_ply`).
pub fn decode_exact(layout: &Layout, model: &[bool], ply: usize) -> Result<Decoded, DecodeError> {
    let found = replay_model(layout, model, |at, _| at == ply)?;
    Ok(found.expect("the layout has the plies of its question"))
}

/// Replays the model's moves until `stop(ply, board)` holds at a position: the game up to
/// there, or `None` if it never does.
fn replay_model(
    layout: &Layout,
    model: &[bool],
    mut stop: impl FnMut(usize, &Board) -> bool,
) -> Result<Option<Decoded>, DecodeError> {
    let value = |l: Lit| model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
    let mut moves = Vec::new();
    let mut board = Board::START;
    for ply in 0..=layout.moves.len() {
        if stop(ply, &board) {
            return Ok(Some(Decoded {
                moves,
                ply,
                mobility: board.mobility(),
                board,
            }));
        }
        let Some(block) = layout.moves.get(ply) else {
            break;
        };
        let set: Vec<usize> = (0..65).filter(|&i| value(block[i])).collect();
        let [chosen] = set[..] else {
            return Err(DecodeError::NotOneMove {
                ply,
                count: set.len(),
            });
        };
        let mv = if chosen == 64 {
            Move::Pass
        } else {
            Move::Play(Square::new(chosen as u32).expect("a square index"))
        };
        board = play_variant(&board, mv).ok_or(DecodeError::Illegal { ply, mv })?;
        moves.push(mv);
    }
    Ok(None)
}
