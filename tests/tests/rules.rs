//! The fast flip, the table-free flip and the move generator against the naive ray walker,
//! on random reachable positions (every position of random games) and on random boards.

use engine::{flip::flip, reference, wordops, Board};
use othello_tests::random_game_positions;
use proptest::prelude::*;

/// Checks every empty square of `board` and its move set.
fn check_board(board: &Board) -> Result<(), TestCaseError> {
    let (p, o) = (board.player, board.opponent);
    for sq in 0..64 {
        if board.empties() >> sq & 1 == 1 {
            let expected = reference::flips(p, o, sq);
            prop_assert_eq!(
                flip(sq as usize, p, o),
                expected,
                "fast flip, square {}",
                sq
            );
            prop_assert_eq!(
                wordops::flip(1u64 << sq, p, o),
                expected,
                "table-free, square {}",
                sq
            );
        }
    }
    prop_assert_eq!(board.moves(), reference::moves(p, o));
    Ok(())
}

proptest! {
    // 20,000 games of about 61 positions each: over 10^6 reachable positions.
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn reachable_positions(seed in any::<u64>()) {
        let positions = random_game_positions(seed);
        prop_assert!(positions.len() >= 10);
        for position in &positions {
            check_board(&position.board)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200_000))]

    /// Any disjoint pair of bitboards, reachable or not: the flips are a pure function.
    #[test]
    fn arbitrary_boards(p in any::<u64>(), o in any::<u64>(), density in 0u32..4) {
        // Thin the empties out to get dense boards with long runs as well as sparse ones.
        let o = o & !p;
        let extra = if density == 0 { 0 } else { !(p | o) & (p.rotate_left(density * 7) | o.rotate_left(density * 13)) };
        check_board(&Board::new(p, o | extra))?;
    }

    /// Moves commute with the eight symmetries, and the canonical form is symmetric.
    #[test]
    fn symmetry_invariance(seed in any::<u64>(), ply in 0usize..60) {
        let positions = random_game_positions(seed);
        let board = positions[ply.min(positions.len() - 1)].board;
        for k in 0..8 {
            let image = board.symmetry(k);
            prop_assert_eq!(image.moves(), engine::board::symmetry(board.moves(), k));
            prop_assert_eq!(image.canonical(), board.canonical());
        }
    }
}
