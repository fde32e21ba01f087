//! Forward enumeration against the published counts (A124005 by plies; the 2,958,551
//! boards with 14 discs the "Othello is Solved" work started from), in memory and spilled
//! to disk, and maximum mobility against perft-style counting by the core.

use retro::{max_mobility, Convention, Level};

fn counts(
    convention: Convention,
    last: u32,
    limit: usize,
    canonical: bool,
) -> Vec<(u64, Option<u64>)> {
    let mut level = Level::start(convention);
    let mut counts = Vec::new();
    loop {
        let c = level.count(canonical, limit).unwrap();
        counts.push((c.positions, c.canonical));
        if c.level == last {
            return counts;
        }
        level = level.next(convention, limit).unwrap();
    }
}

#[test]
fn positions_by_ply_match_a124005() {
    let expected = [1, 4, 12, 54, 236, 1288, 7092, 42614, 269352, 1743560];
    for limit in [1 << 24, 1 << 14] {
        let found: Vec<u64> = counts(Convention::Plies, 9, limit, false)
            .iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(found, expected, "limit {limit}");
    }
}

#[test]
fn boards_with_14_discs_up_to_symmetry() {
    let found = counts(Convention::Discs, 14, 1 << 24, true);
    assert_eq!(found.last().unwrap().1, Some(2_958_551));
    assert_eq!(found[0], (1, Some(1)));
}

/// The largest mobility over every game of at most `plies` plies: plain depth-first
/// search, no symmetry, no levels.
fn most_moves(board: &engine::Board, plies: u32) -> u32 {
    let here = board.mobility();
    if plies == 0 || board.is_game_over() {
        return here;
    }
    let children: Vec<engine::Board> = if board.moves() == 0 {
        vec![board.pass()]
    } else {
        board
            .legal_moves()
            .map(|sq| board.play(sq).unwrap())
            .collect()
    };
    children
        .iter()
        .map(|c| most_moves(c, plies - 1))
        .fold(here, u32::max)
}

#[test]
fn max_mobility_against_every_game() {
    for plies in [7, 9] {
        let found = max_mobility(plies, 1 << 20).unwrap();
        assert_eq!(
            found.mobility,
            most_moves(&engine::Board::START, plies),
            "{plies} plies"
        );
        let witness = engine::game::format_moves(&found.witness);
        let game = engine::Game::replay(engine::Position::START, &witness).unwrap();
        assert_eq!(game.last().board.mobility(), found.mobility);
        assert!(found.witness.len() <= plies as usize);
    }
}
