//! OBF lines and move lists: parse and format are exact inverses, and no input panics.

use engine::game::{format_moves, Game};
use engine::obf::{Answer, Obf};
use engine::{input, Move, Position};
use othello_tests::random_game_positions;
use proptest::prelude::*;
use rand::{rngs::SmallRng, SeedableRng};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    /// format(parse(s)) == s for canonical lines, and parse(format(x)) == x.
    #[test]
    fn obf_round_trip(seed in any::<u64>(), ply in 0usize..61, scores in prop::collection::vec(-64i32..=64, 0..5)) {
        let positions = random_game_positions(seed);
        let position = positions[ply.min(positions.len() - 1)];
        // Answers for the moves that can be played there (a pass only where it is forced):
        // a line with any other is malformed.
        let mut moves: Vec<Move> = position.board.legal_moves().map(Move::Play).collect();
        if moves.is_empty() && !position.board.is_game_over() {
            moves.push(Move::Pass);
        }
        let answers = scores.iter().zip(&moves).map(|(&score, &mv)| Answer { mv, score }).collect();
        let obf = Obf {
            position,
            answers,
            known_score: None,
        };
        let text = obf.to_string();
        let parsed: Obf = text.parse().unwrap();
        prop_assert_eq!(&parsed, &obf);
        prop_assert_eq!(parsed.to_string(), text);
    }

    /// Replaying a game's canonical move list gives the game back, passes written or not.
    #[test]
    fn move_list_round_trip(seed in any::<u64>()) {
        let game = Game::random(&mut SmallRng::seed_from_u64(seed), 60);
        let text = format_moves(&game.moves);
        prop_assert_eq!(&Game::replay(Position::START, &text).unwrap(), &game);
        let shouted = text.to_uppercase().replace("PS", "pa");
        prop_assert_eq!(&Game::replay(Position::START, &shouted).unwrap(), &game);
        // Forced passes may be left out, except a last one (nothing follows to force it).
        let silent = Game::replay(Position::START, &text.replace("ps", "")).unwrap();
        let trailing_passes = game.moves.iter().rev().take_while(|&&m| m == Move::Pass).count();
        let kept = game.moves.len() - trailing_passes;
        prop_assert_eq!(&silent.moves[..], &game.moves[..kept]);
        prop_assert_eq!(&silent.positions[..], &game.positions[..=kept]);
    }

    /// Whatever a user types, the answer is a value or a located error, never a panic.
    #[test]
    fn no_input_panics(text in "\\PC{0,80}", obf_like in "[-XO*.xoé ]{60,70}[ ;XOZ:+0-9A-H]{0,20}") {
        for candidate in [&text, &obf_like] {
            // A value formats back to OBF that reads as the same position; an error is one
            // line naming its source.
            match input::parse_position("arg", candidate) {
                Ok((obf, _)) => {
                    let again: Obf = Obf::new(obf.position).to_string().parse().unwrap();
                    prop_assert_eq!(again.position, obf.position);
                }
                Err(e) => {
                    let message = e.to_string();
                    prop_assert!(message.starts_with("arg:") && !message.contains('\n'), "{}", message);
                }
            }
            match engine::obf::parse_text("file", candidate) {
                Ok(positions) => {
                    for (_, obf) in positions {
                        let again: Obf = Obf::new(obf.position).to_string().parse().unwrap();
                        prop_assert_eq!(again.position, obf.position);
                    }
                }
                Err(e) => {
                    let message = e.to_string();
                    prop_assert!(message.starts_with("file") && !message.contains('\n'), "{}", message);
                }
            }
        }
    }
}
