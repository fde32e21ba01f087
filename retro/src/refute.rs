//! Cheap refutations: invariants every position of a legal game keeps, each with its
//! proof. A position that breaks one is unreachable; one that keeps them all may still be.

use engine::board::CENTRE;
use engine::{Bitboard, Position, Square};
use satgen::target::{never_flipped, placement_rounds};

use crate::enumerate::side_index;
use crate::unmove::unmoves;

/// Why `position` cannot arise in a game from the start, if a cheap test shows it: a
/// disc no game can have played ([`unplayable_disc`]), or
///
/// 4. A centre disc that no line can bracket has the other colour than at the start.
///    Flipping a disc needs both of its neighbours on one line occupied at that moment,
///    hence in the position (discs stay); if every line through it has a neighbour off the
///    board or empty in the position, it never flipped ([`never_flipped`]).
/// 5. No last move: it is not the start, and no move of the side not to move (nor a
///    pass) leads to it. Every later position of a game follows another by one of these,
///    and `unmove::unmoves` lists every such predecessor.
pub fn refute(position: &Position) -> Option<String> {
    let board = &position.board;
    if let Some(why) = unplayable_disc(board) {
        return Some(why);
    }
    let (black, white) = position.discs();
    let start = Position::START.discs();
    let fixed = never_flipped(black | white) & CENTRE;
    if let Some(sq) = Bitboard(fixed & (black ^ start.0)).next() {
        return Some(format!(
            "centre disc {sq} can never have flipped but has changed colour"
        ));
    }
    if *position != Position::START && unmoves(board, side_index(position.side)).is_empty() {
        return Some(
            "no last move: no disc of the side not to move can have been played last, and no pass leads here"
                .into(),
        );
    }
    None
}

/// Why a disc of `board` cannot have been played as it stands, whichever side is to move
/// (the backward search prunes its predecessors with this too):
///
/// 1. A centre square is empty, or a disc is not connected to the centre
///    ([`engine::Board::impossibility`]): the centre is filled at the start, discs are never
///    removed, and every move is next to a disc already there (it flips one).
/// 2. A disc that no order of play can place: each move flips, so needs two discs beyond
///    it on one line that were there first ([`placement_rounds`]). Far stronger than
///    connection on random boards (a corner needs two discs beyond it on a line).
/// 3. A disc outside the centre that never flipped (as in 4 below) has the colour it was
///    played with, and its move flipped a run of discs on some line up to a disc of that
///    colour: the run and that disc are occupied in the position. If every such end disc
///    also never flipped, it has had its present colour throughout (since it was played,
///    or since the start for the centre, where it has its start colour or rule 4 refutes),
///    so one of them must have the colour of the disc played; when none has, that disc was
///    never played with its colour.
pub fn unplayable_disc(board: &engine::Board) -> Option<String> {
    if let Some(why) = board.impossibility() {
        return Some(why);
    }
    let (player, opponent) = (board.player, board.opponent);
    let occupied = player | opponent;
    let rounds = placement_rounds(occupied);
    if let Some(sq) = Square::all().find(|sq| rounds[sq.index()] == usize::MAX) {
        return Some(format!(
            "disc on {sq} cannot have been played: no order of play has two discs beyond it on one line first"
        ));
    }
    let fixed = never_flipped(occupied);
    let bracketed = |sq: Square| {
        let mine = if player & sq.bit() != 0 {
            player
        } else {
            opponent
        };
        (0..8).any(|d| {
            std::iter::successors(sq.step(d), |n| n.step(d))
                .take_while(|n| occupied & n.bit() != 0)
                .skip(1)
                .any(|end| fixed & end.bit() == 0 || mine & end.bit() != 0)
        })
    };
    if let Some(sq) = Bitboard(fixed & !CENTRE).find(|&sq| !bracketed(sq)) {
        return Some(format!(
            "disc on {sq} never flipped, so was played with its colour, but no line from it ends in a disc that can have had that colour"
        ));
    }
    None
}

/// The board `refute` sees for a bitboard pair with `black` to move or not: for tests.
#[cfg(test)]
fn position(black: u64, white: u64, black_to_move: bool) -> Position {
    let side = if black_to_move {
        engine::Color::Black
    } else {
        engine::Color::White
    };
    Position::from_colors(black, white, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(squares: &[&str]) -> u64 {
        squares
            .iter()
            .map(|s| s.parse::<Square>().unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn each_rule_fires_on_its_case() {
        let (black, white) = Position::START.discs();
        assert_eq!(refute(&Position::START), None);
        // White to move at the start: nothing leads there.
        let why = refute(&position(black, white, false)).unwrap();
        assert!(why.starts_with("no last move"), "{why}");
        // The centre with colours swapped: d4 can never have flipped.
        let why = refute(&position(white, black, true)).unwrap();
        assert!(why.contains("never have flipped"), "{why}");
        // An empty centre square.
        let why = refute(&position(black, white & !bits(&["d4"]), true)).unwrap();
        assert!(why.contains("centre square d4 is empty"), "{why}");
        // A corner with one neighbour: connected, but nothing can have flipped from it.
        let why = refute(&position(
            black | bits(&["c5", "b6", "a7", "a8"]),
            white,
            true,
        ))
        .unwrap();
        assert!(
            why.starts_with("disc on a8 cannot have been played"),
            "{why}"
        );
        // a1 (black) can only have flipped along the a-file up to a3, white and never
        // flippable (a4 is empty): a1 was never played black.
        let shape = bits(&["c3", "c4", "b3", "a2", "a1"]);
        let why = refute(&position(black | shape, white | bits(&["a3"]), true)).unwrap();
        assert!(why.starts_with("disc on a1 never flipped"), "{why}");
        let a3_black = refute(&position(black | shape | bits(&["a3"]), white, true));
        assert!(!a3_black.is_some_and(|w| w.contains("never flipped")));
        // After f5 (black took e5): fine with white to move.
        let after = Position::START.play("f5".parse().unwrap()).unwrap();
        assert_eq!(refute(&after), None);
    }
}
