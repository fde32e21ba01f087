//! Forward enumeration against the published counts (A124005 by plies; the 2,958,551
//! boards with 14 discs the "Othello is Solved" work started from), in memory and spilled
//! to disk, and maximum mobility against perft-style counting by the core.

use std::sync::atomic::AtomicBool;

use retro::enumerate::Build;
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
    let expected = [
        1, 4, 12, 54, 236, 1288, 7092, 42614, 269352, 1743560, 11922442,
    ];
    for limit in [1 << 24, 1 << 14] {
        let found: Vec<u64> = counts(Convention::Plies, 10, limit, false)
            .iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(found, expected, "limit {limit}");
    }
}

/// The partitions of a level (`retro enumerate --shard`) add up to the whole level, in
/// memory and spilled, positions and classes up to symmetry alike, and none is empty.
#[test]
fn partitions_add_up_to_the_level() {
    let stop = AtomicBool::new(false);
    let mut level = Level::start(Convention::Plies);
    while level.number < 10 {
        if level.number >= 7 {
            let whole = level
                .next(Convention::Plies, 1 << 24)
                .unwrap()
                .count(true, 1 << 24)
                .unwrap();
            for (parts, limit) in [(3, 1 << 24), (5, 1 << 14)] {
                let (mut positions, mut canonical) = (0, 0);
                for index in 0..parts {
                    let build = Build {
                        limit,
                        dir: None,
                        partition: Some((index, parts)),
                        stop: &stop,
                        done: &|_| (),
                    };
                    let part = level.build_next(Convention::Plies, &build).unwrap();
                    let count = part.count(true, limit).unwrap();
                    assert!(count.positions > 0);
                    positions += count.positions;
                    canonical += count.canonical.unwrap();
                }
                assert_eq!(
                    (positions, Some(canonical)),
                    (whole.positions, whole.canonical),
                    "ply {} in {parts} parts",
                    whole.level
                );
            }
        }
        level = level.next(Convention::Plies, 1 << 24).unwrap();
    }
}

/// Levels kept in a directory (`retro enumerate --levels`) are found again, spilled or
/// not, and the run resumed from them counts what an uninterrupted run counts.
#[test]
fn saved_levels_resume_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut level = Level::start(Convention::Plies);
    for _ in 0..7 {
        let build = Build {
            limit: 1 << 12,
            dir: Some(dir.path()),
            partition: None,
            stop: &stop,
            done: &|_| (),
        };
        level = level
            .build_next(Convention::Plies, &build)
            .unwrap()
            .save(dir.path(), Convention::Plies)
            .unwrap();
    }
    let resumed = Level::load_latest(dir.path(), Convention::Plies, 9)
        .unwrap()
        .expect("ply 7 saved");
    assert_eq!(resumed.number, 7);
    let at_most_5 = Level::load_latest(dir.path(), Convention::Plies, 5).unwrap();
    assert_eq!(at_most_5.map(|l| l.number), Some(5));
    let next = resumed.next(Convention::Plies, 1 << 12).unwrap();
    assert_eq!(next.count(false, 1 << 12).unwrap().positions, 269_352);
    // A level's count is kept beside it and read back, not counted again.
    let counted = resumed
        .count_in(dir.path(), Convention::Plies, true, 1 << 12, &stop)
        .unwrap();
    assert_eq!(
        (counted.positions, counted.canonical),
        (42_614, Some(10_649))
    );
    // ... checked against its seal: a count changed by hand (or a flipped digit) is
    // refused, naming the file, rather than printed.
    let kept = dir.path().join("plies-7-count.json");
    let text = std::fs::read_to_string(&kept).unwrap();
    let again = resumed.count_in(dir.path(), Convention::Plies, true, 1 << 12, &stop);
    assert_eq!(again.unwrap().positions, 42_614);
    std::fs::write(&kept, text.replace("42614", "42615")).unwrap();
    let read = resumed.count_in(dir.path(), Convention::Plies, true, 1 << 12, &stop);
    let error = read.expect_err("a changed count is refused").to_string();
    assert!(
        error.contains("plies-7-count.json") && error.contains("checksum"),
        "{error}"
    );
    std::fs::remove_file(kept).unwrap();
    // Only the saved levels stay in the directory (no spilled run is left behind).
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 7 * 3);
}

/// Saved levels whose files were damaged after they were written (a changed byte, a
/// record written twice, a file cut short, a manifest edited) are refused at once, naming
/// the file, never counted into the next level; removed, the level is built again.
#[test]
fn damaged_levels_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut level = Level::start(Convention::Plies);
    for _ in 0..6 {
        level = level
            .next_in(Convention::Plies, 1 << 12, Some(dir.path()))
            .unwrap();
    }
    let keys = dir.path().join("plies-6-black.keys");
    let manifest = dir.path().join("plies-6.json");
    let original = std::fs::read(&keys).unwrap();
    let refused = |why: &str| {
        let error = Level::load_latest(dir.path(), Convention::Plies, 6)
            .err()
            .unwrap_or_else(|| panic!("{why}: accepted"))
            .to_string();
        assert!(error.contains("plies-6"), "{why}: {error}");
        assert!(error.contains("to build it again"), "{why}: {error}");
        error
    };
    let n = original.len();
    // Every byte of a key (its low bits keep the order; its high bits may not).
    for at in [0, 7, 15, n / 2, n - 16, n - 1] {
        let mut bytes = original.clone();
        bytes[at] ^= 0x10;
        std::fs::write(&keys, &bytes).unwrap();
        refused(&format!("byte {at} changed"));
    }
    let mut twice = original.clone();
    twice[16..32].copy_from_slice(&original[..16]);
    std::fs::write(&keys, &twice).unwrap();
    assert!(refused("a record written twice").contains("not greater"));
    std::fs::write(&keys, &original[..n - 16]).unwrap();
    refused("a file cut short");
    std::fs::write(&keys, &original).unwrap();
    let text = std::fs::read_to_string(&manifest).unwrap();
    let count = level.sets[0].len().to_string();
    let edited = text.replacen(&format!("\"black\":{count}"), "\"black\":1", 1);
    assert_ne!(edited, text);
    std::fs::write(&manifest, &edited).unwrap();
    assert!(refused("an edited manifest").contains("checksum"));
    std::fs::write(&manifest, &text).unwrap();
    let whole = Level::load_latest(dir.path(), Convention::Plies, 6)
        .unwrap()
        .unwrap();
    assert_eq!(whole.count(false, 1 << 12).unwrap().positions, 7092);
    // A spilled run that no longer reads as written stops the count: see sorted.rs.
}

/// A run stopped in the middle of a level (as Ctrl-C or SIGTERM stop `retro enumerate
/// --levels`) leaves the whole levels before it; resumed from them, it counts what an
/// uninterrupted run counts (A124005 at ply 10, and its classes up to symmetry).
#[test]
fn an_interrupted_run_resumed_counts_the_same() {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let chunks = AtomicUsize::new(0);
    // Ply 10 is built from ply 9 in several chunks: stop after the first.
    let raise = |_| {
        chunks.fetch_add(1, Relaxed);
        stop.store(true, Relaxed);
    };
    let mut level = Level::start(Convention::Plies);
    let interrupted = loop {
        let build = Build {
            limit: 1 << 16,
            dir: Some(dir.path()),
            partition: None,
            stop: &stop,
            done: if level.number == 9 { &raise } else { &|_| () },
        };
        match level.build_next(Convention::Plies, &build) {
            Ok(next) => level = next.save(dir.path(), Convention::Plies).unwrap(),
            Err(error) => break error,
        }
    };
    assert_eq!(interrupted.kind(), std::io::ErrorKind::Interrupted);
    assert_eq!(chunks.into_inner(), 1, "stopped inside ply 10");
    let resumed = Level::load_latest(dir.path(), Convention::Plies, 12)
        .unwrap()
        .expect("ply 9 saved");
    assert_eq!(
        resumed.number, 9,
        "the stopped level is not taken for whole"
    );
    let count = resumed
        .next(Convention::Plies, 1 << 16)
        .unwrap()
        .count(true, 1 << 16)
        .unwrap();
    assert_eq!(
        (count.positions, count.canonical),
        (11_922_442, Some(2_958_555))
    );
}

#[test]
fn boards_with_14_discs_up_to_symmetry() {
    let found = counts(Convention::Discs, 14, 1 << 24, true);
    assert_eq!(found.last().unwrap().1, Some(2_958_551));
    assert_eq!(found[0], (1, Some(1)));
}

#[test]
fn max_mobility_against_every_game() {
    for plies in [7, 9] {
        let found = max_mobility(plies, 1 << 20).unwrap();
        assert_eq!(
            found.mobility,
            engine::reference::max_mobility(&engine::Board::START, plies),
            "{plies} plies"
        );
        let witness = engine::game::format_moves(&found.witness);
        let game = engine::Game::replay(engine::Position::START, &witness).unwrap();
        assert_eq!(game.last().board.mobility(), found.mobility);
        assert!(found.witness.len() <= plies as usize);
    }
}

/// The two published games reaching 33 legal moves: the positions where they reach it are
/// found reachable again by the backward search (not told the game), with witnesses that
/// the core replays.
#[test]
fn mobility_33_positions_are_reachable() {
    let frontier = retro::Frontier::new(14).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let text =
        std::fs::read_to_string(othello_tests::problem_file("mobility33-witnesses.txt")).unwrap();
    let mut found = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('%') && !l.trim().is_empty())
    {
        let (_, moves) = line.split_once(' ').unwrap();
        let game = engine::Game::replay(engine::Position::START, moves).unwrap();
        let position = game
            .positions
            .iter()
            .find(|p| p.board.mobility() == 33)
            .unwrap();
        let reach = retro::reach(&frontier, position, 1 << 22, u64::MAX, &never).unwrap();
        let witness = reach.witness.expect("reachable");
        let mut p = engine::Position::START;
        for mv in witness {
            p = p.play(mv).unwrap();
        }
        assert_eq!(p, *position);
        found += 1;
    }
    assert_eq!(found, 2);
}

/// None of the 1800 positions with 34 legal moves (either colour to move) is reachable.
#[test]
fn mobility_34_candidates_are_unreachable() {
    let frontier = retro::Frontier::new(14).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let path = othello_tests::problem_file("mobility34-candidates.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let boards = engine::input::parse_bitboard_csv("candidates", &text).unwrap();
    assert_eq!(boards.len(), 1800);
    for (line, board) in boards {
        assert_eq!(board.mobility(), 34, "line {line}");
        for side in [engine::Color::Black, engine::Color::White] {
            let position = engine::Position { board, side };
            let reach = retro::reach(&frontier, &position, 1 << 20, u64::MAX, &never).unwrap();
            assert_eq!(reach.witness, None, "line {line}");
        }
    }
}

/// Positions of random games, deep into the game, are reachable with replayed witnesses;
/// cutting a disc off from the others makes them unreachable.
#[test]
fn random_game_positions_are_reachable() {
    let frontier = retro::Frontier::new(14).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    for seed in 0..30 {
        let positions = othello_tests::random_game_positions(seed);
        // Plies 0, 7, 14 in every game; 21 (25 discs, up to a few million nodes back to
        // the frontier) in a few.
        let plies = if seed % 6 == 1 { 4 } else { 3 };
        for position in positions.iter().step_by(7).take(plies) {
            let reach = retro::reach(&frontier, position, 1 << 20, u64::MAX, &never).unwrap();
            let mut p = engine::Position::START;
            for mv in reach.witness.expect("reachable") {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p, *position, "seed {seed}");
        }
    }
    let mut broken = othello_tests::random_game_positions(1)[12];
    let occupied = broken.board.player | broken.board.opponent;
    let far = !(occupied | engine::board::neighbours(occupied));
    broken.board.player |= far & far.wrapping_neg();
    assert!(broken.board.impossibility().is_some());
    assert_eq!(
        retro::reach(&frontier, &broken, 1 << 20, u64::MAX, &never)
            .unwrap()
            .witness,
        None
    );
}
