//! The exact solver against the FFO answers, against a naive minimax on random endgames,
//! its win/draw/loss mode against its exact scores, and every principal variation replayed.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use engine::cpu::Isa;
use engine::eval::{Evaluation, HandEval};
use engine::reference::minimax;
use engine::search::{Solver, Stop};
use engine::{input, Board, Game, Move};
use othello_tests::{on_threads, problem_file};
use rand::{rngs::SmallRng, RngExt, SeedableRng};

/// The score at the end of `pv` played from `board`, for the side to move at `board`.
fn replay_pv(board: &Board, pv: &[Move]) -> i32 {
    let mut b = *board;
    for (ply, mv) in pv.iter().enumerate() {
        b = match mv {
            Move::Pass => {
                assert_eq!(b.moves(), 0, "pass at ply {ply} while moves exist");
                b.pass()
            }
            Move::Play(sq) => b
                .play(*sq)
                .unwrap_or_else(|| panic!("illegal {sq} at ply {ply}")),
        };
    }
    assert!(b.is_game_over(), "the PV ends the game");
    if pv.len().is_multiple_of(2) {
        b.final_score()
    } else {
        -b.final_score()
    }
}

fn check_ffo_file(name: &str) {
    let solver = Solver::new(64);
    let stop = AtomicBool::new(false);
    for (line, obf) in input::read_possible_positions(&problem_file(name), None).unwrap() {
        let board = obf.position.board;
        let best = obf.best_score().unwrap();
        let solution = solver.solve(&board, -65, 65, &stop).unwrap();
        assert_eq!(solution.score, best, "{name}:{line} score");
        let listed = obf
            .answers
            .iter()
            .find(|a| Some(a.mv) == solution.best_move);
        assert_eq!(
            listed.map(|a| a.score),
            Some(best),
            "{name}:{line} move {:?}",
            solution.best_move
        );
        assert_eq!(replay_pv(&board, &solution.pv), best, "{name}:{line} pv");
        let wld = solver.solve(&board, -1, 1, &stop).unwrap();
        assert_eq!(wld.score.signum(), best.signum(), "{name}:{line} wld");
    }
}

#[test]
fn ffo_1_to_19() {
    on_threads(1, || check_ffo_file("fforum-1-19.obf"));
    on_threads(2, || check_ffo_file("fforum-1-19.obf"));
    on_threads(3, || check_ffo_file("fforum-1-19.obf"));
}

#[test]
fn ffo_20_to_39() {
    on_threads(2, || check_ffo_file("fforum-20-39.obf"));
}

/// The null-window searches that dfpn's leaves run, splitting among the pool's threads or
/// kept on the caller's (as when several dfpn threads search at once), on the FFO
/// positions of 20 empties and more, where nodes split: both bound the listed score.
#[test]
fn null_windows_agree_split_or_not() {
    let stop = AtomicBool::new(false);
    on_threads(2, || {
        for split in [true, false] {
            let solver = Solver::new(16);
            for (line, obf) in
                input::read_possible_positions(&problem_file("fforum-1-19.obf"), None).unwrap()
            {
                let board = obf.position.board;
                let best = obf.best_score().unwrap();
                let above = solver
                    .null_window(&board, best - 1, Stop::new(&stop), split)
                    .0
                    .unwrap();
                let below = solver
                    .null_window(&board, best + 1, Stop::new(&stop), split)
                    .0
                    .unwrap();
                assert!(above >= best && below <= best, "line {line}, split {split}");
            }
        }
    });
}

/// The worst possible ordering hint: the hand evaluation upside down.
struct Contrarian;

impl Evaluation for Contrarian {
    fn evaluate(&self, board: &Board) -> i32 {
        -HandEval.evaluate(board)
    }
}

#[test]
fn answers_do_not_depend_on_the_evaluation() {
    let solver = Solver::new(16).with_eval(Arc::new(Contrarian));
    let stop = AtomicBool::new(false);
    for (line, obf) in
        input::read_possible_positions(&problem_file("fforum-1-19.obf"), None).unwrap()
    {
        let solution = solver.solve(&obf.position.board, -65, 65, &stop).unwrap();
        assert_eq!(Some(solution.score), obf.best_score(), "line {line}");
    }
}

#[test]
fn random_endgames_against_minimax() {
    on_threads(1, || random_endgames(2026, 5_000, Solver::new(16), 0));
    on_threads(2, || random_endgames(2027, 5_000, Solver::new(16), 0));
}

/// The selective search that precedes the exact one (from 20 empties by default), run on
/// small positions: probable cuts from 10 empties on, bounds left in the table, then the
/// exact search with a window around the selective score. With the contrarian evaluation
/// many probable cuts are wrong, so an exact search that used their bounds would fail.
#[test]
fn random_endgames_after_a_selective_search() {
    let solver = || {
        Solver::new(16)
            .with_eval(Arc::new(Contrarian))
            .selective_from(9)
    };
    on_threads(1, || random_endgames(2028, 2_000, solver(), 9));
    on_threads(2, || random_endgames(2029, 2_000, solver(), 9));
}

/// `count` random positions with `lowest` to 12 empties, solved by `solver` in several
/// windows, against minimax.
fn random_endgames(seed: u64, count: usize, solver: Solver, lowest: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    // Every instruction set's version of the search, whichever one `solver` runs here.
    let versions: Vec<(Isa, Solver)> = Isa::available()
        .into_iter()
        .map(|isa| (isa, Solver::new(16).with_isa(isa)))
        .collect();
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    while checked < count {
        let empties = rng.random_range(lowest..=12);
        let game = Game::random(&mut rng, 60 - empties);
        let board = game.last().board;
        let expected = minimax(&board, -65, 65);
        let solution = solver.solve(&board, -65, 65, &stop).unwrap();
        assert_eq!(solution.score, expected, "{board:?}");
        assert_eq!(replay_pv(&board, &solution.pv), expected, "{board:?} pv");
        let wld = solver.solve(&board, -1, 1, &stop).unwrap().score.signum();
        assert_eq!(wld, expected.signum(), "{board:?} wld");
        if checked % 10 == 0 {
            for (isa, version) in &versions {
                let score = version.solve(&board, -65, 65, &stop).unwrap().score;
                assert_eq!(score, expected, "{board:?} {isa:?}");
            }
        }
        // Narrow windows give correct fail-soft bounds.
        let (alpha, beta) = (expected - 3, expected + 1);
        let bounded = solver.solve(&board, alpha, beta, &stop).unwrap().score;
        assert_eq!(bounded, expected, "{board:?} window ({alpha}, {beta})");
        let above = solver
            .solve(&board, expected, expected + 4, &stop)
            .unwrap()
            .score;
        assert!(above <= expected, "{board:?} fail low: {above}");
        let below = solver
            .solve(&board, expected - 6, expected, &stop)
            .unwrap()
            .score;
        assert!(below >= expected, "{board:?} fail high: {below}");
        checked += 1;
    }
}
