//! Move lists (`f5d6c3`) and games replayed from them.

use rand::{Rng, RngExt};

use crate::error::{ParseErrorKind, Spanned};
use crate::position::{Move, Position};

/// A game: the positions from the first to the last, and the move between each pair
/// (forced passes included, whether or not the text named them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Every position, the first one first.
    pub positions: Vec<Position>,
    /// `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
    pub moves: Vec<Move>,
}

impl Game {
    /// The last position.
    pub fn last(&self) -> &Position {
        self.positions.last().expect("a game has a first position")
    }

    /// Replays the move list `text` from `start`. Moves are two characters each (`f5`,
    /// `ps`/`pa` for a pass), either case, optionally separated by spaces; a pass the rules
    /// force may be left out. Errors carry the 0-based byte offset of the move.
    pub fn replay(start: Position, text: &str) -> Result<Game, Spanned> {
        let mut game = Game {
            positions: vec![start],
            moves: Vec::new(),
        };
        for (offset, mv) in parse_moves(text)? {
            let here = *game.last();
            if mv != Move::Pass && here.board.must_pass() {
                game.push(Move::Pass, here.play(Move::Pass).map_err(|e| (offset, e))?);
            }
            let here = *game.last();
            game.push(mv, here.play(mv).map_err(|e| (offset, e))?);
        }
        Ok(game)
    }

    /// A game of up to `plies` uniformly random moves from the start (fewer if it ends),
    /// forced passes included: the source of random reachable positions for tests and data.
    pub fn random(rng: &mut impl Rng, plies: usize) -> Game {
        Game::played_out(plies, |n| Some(rng.random_range(0..n)))
    }

    /// A game from the start that plays, at each ply with legal moves, the move `c % n` of
    /// its `n` legal moves (in square order) for the next choice `c`, and passes where
    /// forced; it ends with the choices or the game. The games of property tests: a
    /// failing game shrinks to fewer and smaller choices.
    pub fn from_choices(choices: &[usize]) -> Game {
        let mut choices = choices.iter();
        Game::played_out(usize::MAX, |n| choices.next().map(|c| c % n))
    }

    /// Plays from the start until `plies` plies, the end of the game, or `pick` (given the
    /// number of legal moves, asked only where there are some) returns `None`; otherwise
    /// `pick` says which legal move, in square order.
    fn played_out(plies: usize, mut pick: impl FnMut(usize) -> Option<usize>) -> Game {
        let mut game = Game {
            positions: vec![Position::START],
            moves: Vec::new(),
        };
        while game.moves.len() < plies && !game.last().board.is_game_over() {
            let here = *game.last();
            let legal = here.board.legal_moves();
            let mv = match legal.len() {
                0 => Move::Pass,
                n => match pick(n) {
                    Some(i) => Move::Play(legal.clone().nth(i).expect("n moves")),
                    None => break,
                },
            };
            game.push(mv, here.play(mv).expect("a legal move"));
        }
        game
    }

    /// Plays `mv` from the last position, or says why it is not legal there.
    pub fn play(&mut self, mv: Move) -> Result<(), ParseErrorKind> {
        let next = self.last().play(mv)?;
        self.push(mv, next);
        Ok(())
    }

    fn push(&mut self, mv: Move, position: Position) {
        self.moves.push(mv);
        self.positions.push(position);
    }
}

/// Splits a move list into moves with their byte offsets.
pub fn parse_moves(text: &str) -> Result<Vec<(usize, Move)>, Spanned> {
    let mut moves = Vec::new();
    let mut rest = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .peekable();
    while let Some((offset, first)) = rest.next() {
        let token: String = match rest.next() {
            Some((_, second)) => [first, second].iter().collect(),
            None => first.to_string(),
        };
        // A pass written out in full ("f5 pass d6") is "pa" followed by "ss".
        if token.eq_ignore_ascii_case("pa") {
            let mut ahead = rest.clone().map(|(_, c)| c.to_ascii_lowercase());
            if ahead.next() == Some('s') && ahead.next() == Some('s') {
                rest.nth(1);
            }
        }
        moves.push((offset, token.parse().map_err(|e| (offset, e))?));
    }
    Ok(moves)
}

/// The move list in its canonical form: lower case, no separators, passes as `ps`.
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ParseErrorKind;
    use rand::{rngs::SmallRng, SeedableRng};

    /// A game of choices plays the chosen moves (modulo the legal ones, in square order),
    /// passes only where forced, and stops with the choices or at the end of the game.
    #[test]
    fn games_from_choices_play_the_chosen_moves() {
        assert_eq!(Game::from_choices(&[]).moves, []);
        // The start's moves in square order: d3, c4, f5, e6; then f4, d6, f6.
        let game = Game::from_choices(&[2, 5]);
        assert_eq!(format_moves(&game.moves), "f5f6");
        let whole = Game::from_choices(&[0; 100]);
        assert!(whole.last().board.is_game_over());
        assert!(whole.moves.len() <= 100);
        for (i, mv) in whole.moves.iter().enumerate() {
            assert_eq!(whole.positions[i].play(*mv), Ok(whole.positions[i + 1]));
            let forced = whole.positions[i].board.moves() == 0;
            assert_eq!(*mv == Move::Pass, forced, "ply {i}");
        }
    }

    #[test]
    fn pass_may_be_written_out() {
        let moves = parse_moves("f5 PASS d6 ps pa").unwrap();
        let kinds: Vec<bool> = moves.iter().map(|(_, m)| *m == Move::Pass).collect();
        assert_eq!(kinds, [false, true, false, true, true]);
        assert_eq!(moves[2].0, 8);
    }

    #[test]
    fn replays_and_formats() {
        let game = Game::replay(Position::START, "F5d6 C3").unwrap();
        assert_eq!(game.moves.len(), 3);
        assert_eq!(format_moves(&game.moves), "f5d6c3");
        assert_eq!(game.last().board.empty_count(), 57);
    }

    #[test]
    fn reports_illegal_moves_with_offsets() {
        let err = Game::replay(Position::START, "f5a1").unwrap_err();
        assert_eq!(err.0, 2);
        assert!(matches!(err.1, ParseErrorKind::IllegalMove { .. }));
        assert_eq!(err.1.to_string(), "illegal move a1 (legal: f4 d6 f6)");
        let err = Game::replay(Position::START, "f5 x9").unwrap_err();
        assert_eq!(err, (3, ParseErrorKind::BadMove("x9".into())));
        let err = Game::replay(Position::START, "f5d").unwrap_err();
        assert_eq!(err, (2, ParseErrorKind::BadMove("d".into())));
        let err = Game::replay(Position::START, "ps").unwrap_err();
        assert!(matches!(err.1, ParseErrorKind::IllegalPass { .. }));
    }

    /// The shortest games end after 9 plies: nothing may follow, and a forced pass is
    /// inserted when left out of the list.
    #[test]
    fn game_over_and_forced_passes() {
        let short = Game::replay(Position::START, "d3c3b3d2e1d6d7e3f4").unwrap();
        assert!(short.last().board.is_game_over());
        assert!(Game::replay(Position::START, "d3c3b3d2e1d6d7e3f4a1").is_err());
        // Random playouts until one has a forced pass; drop it from the text.
        let mut rng = SmallRng::seed_from_u64(1);
        let with_pass = std::iter::repeat_with(|| Game::random(&mut rng, 60))
            .take(10_000)
            .find(|game| game.moves.contains(&Move::Pass));
        let Game { moves, positions } = with_pass.expect("some playout has a pass");
        let position = *positions.last().unwrap();
        let full = format_moves(&moves);
        let replayed = Game::replay(Position::START, &full.replace("ps", "")).unwrap();
        assert_eq!(replayed.moves, moves);
        assert_eq!(replayed.last(), &position);
    }
}
