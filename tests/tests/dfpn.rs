//! The proof-number solver against the alpha-beta solver and the FFO answers: exact scores,
//! every threshold question asked on the way, win/draw/loss, and proofs checked from
//! scratch.

use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use dfpn::{check, Aggregation, Initial, Options, Prover, Step, Wld};
use engine::obf::Obf;
use engine::search::{Solver, Stop};
use engine::{input, Board, Position};
use othello_tests::{on_threads, problem_file, random_game_positions};
use rand::{rngs::SmallRng, RngExt, SeedableRng};

static NEVER: AtomicBool = AtomicBool::new(false);

/// The position after `plies` (drawn by `rng`) of random game `game`, with its exact score
/// by `solver`; `None` where the game ended sooner.
fn random_endgame(
    solver: &Solver,
    rng: &mut SmallRng,
    game: u64,
    plies: RangeInclusive<usize>,
) -> Option<(Position, i32)> {
    let positions = random_game_positions(game);
    let position = *positions.get(rng.random_range(plies))?;
    let exact = solver
        .solve(&position.board, -65, 65, &NEVER)
        .unwrap()
        .score;
    Some((position, exact))
}

/// Every threshold question of `steps` answered as the exact score `exact` says.
fn assert_steps_answered(steps: &[Step], exact: i32, context: &str) {
    for step in steps {
        assert_eq!(
            step.proven,
            exact >= step.threshold,
            "{context} threshold {}",
            step.threshold
        );
    }
}

/// The FFO positions of `lines` of the file, df-pn on two threads: `tree_threads` of them
/// over one table (with one, the leaves are searched together over the pool's two), the
/// leaves small (at the default size these positions' roots would be leaves).
fn check_ffo_file(name: &str, lines: std::ops::Range<usize>, tree_threads: usize) {
    on_threads(2, || check_ffo_lines(name, lines, tree_threads));
}

fn check_ffo_lines(name: &str, lines: std::ops::Range<usize>, tree_threads: usize) {
    let mut prover = Prover::new(Options {
        leaf_empties: 16,
        easy_leaf_empties: 20,
        table_mb: 64,
        leaf_table_mb: 32,
        tree_threads,
        ..Options::default()
    });
    for (line, obf) in input::read_possible_positions(&problem_file(name), None).unwrap() {
        if !lines.contains(&line) {
            continue;
        }
        let board = obf.position.board;
        let best = obf.best_score().unwrap();
        let exact = prover.exact_score(&board, &NEVER).unwrap();
        assert_eq!(exact.score, best, "{name}:{line}");
        let mv = exact.best_move.unwrap();
        let listed = obf.answers.iter().find(|a| a.mv == mv);
        assert_eq!(
            listed.map(|a| a.score),
            Some(best),
            "{name}:{line} move {mv}"
        );
        // Questions were asked (a right guess of +64 needs one, "at least 64?").
        assert!(!exact.steps.is_empty(), "{name}:{line}: no question asked");
        assert_steps_answered(&exact.steps, best, &format!("{name}:{line}"));
        let (wld, _, _) = prover.wld(&board, &NEVER).unwrap();
        assert_eq!(wld, Wld::of_score(best), "{name}:{line} wld");
    }
}

#[test]
fn ffo_1_to_19() {
    check_ffo_file("fforum-1-19.obf", 1..20, 2);
}

#[test]
fn ffo_20_to_29() {
    check_ffo_file("fforum-20-39.obf", 1..11, 2);
}

#[test]
fn ffo_30_to_39() {
    check_ffo_file("fforum-20-39.obf", 11..21, 1);
}

/// Random endgames with 8-14 empties and random search settings (small leaves, so the
/// proof numbers do the work; sometimes a tiny table, so garbage collection runs; one or
/// two threads over the tree, so collections also run beside a search, and with one the
/// leaves are searched together over the pool's two threads), each threshold answer
/// against the alpha-beta solver's exact score.
#[test]
fn random_endgames_against_alpha_beta() {
    on_threads(2, random_endgames);
}

fn random_endgames() {
    let solver = Solver::new(16);
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut collections = 0;
    let mut questions = 0;
    for seed in 0..1000u64 {
        let Some((position, exact)) = random_endgame(&solver, &mut rng, 10_000 + seed, 46..=52)
        else {
            continue;
        };
        let board: Board = position.board;
        let options = Options {
            leaf_empties: rng.random_range(0..=7),
            easy_leaf_empties: rng.random_range(0..=14),
            easy_margin: [0, 4, 12][rng.random_range(0..3)],
            initial: [Initial::Evaluation, Initial::Mobility, Initial::Unit]
                [rng.random_range(0..3)],
            aggregation: if rng.random_bool(0.8) {
                Aggregation::Weak
            } else {
                Aggregation::Sum
            },
            epsilon: [0.0, 0.25, 1.0][rng.random_range(0..3)],
            estimate_factor: [1.0, 1.5, 4.0][rng.random_range(0..3)],
            table_mb: if seed % 10 == 0 { 1 } else { 4 },
            leaf_table_mb: 1,
            guess_empties: [0, 10, 61][rng.random_range(0..3)],
            tree_threads: 1 + (seed % 2) as usize,
        };
        let mut prover = Prover::new(options);
        for _ in 0..3 {
            let t = rng.random_range(-64..=64);
            let proven = prover.prove(&board, t, &NEVER).unwrap();
            assert_eq!(
                proven,
                exact >= t,
                "seed {seed}, threshold {t}, exact {exact}, {options:?}"
            );
            questions += 1;
        }
        if seed % 4 == 0 {
            let found = prover.exact_score(&board, &NEVER).unwrap();
            assert_eq!(found.score, exact, "seed {seed} {options:?}");
            let (wld, keeping, _) = prover.wld(&board, &NEVER).unwrap();
            assert_eq!(wld, Wld::of_score(exact), "seed {seed} {options:?}");
            // The move given keeps the win or draw, by alpha-beta; none for a loss.
            assert_eq!(keeping.is_none(), wld == Wld::Loss || board.is_game_over());
            if let Some(mv) = keeping {
                let child = position.play(mv).unwrap().board;
                let after = solver.solve(&child, -65, 65, &NEVER).unwrap().score;
                assert_eq!(
                    Wld::of_score(-after),
                    wld,
                    "seed {seed}: {mv} keeps the {wld}"
                );
            }
            if let Some(mv) = found.best_move {
                let child = position.play(mv).unwrap().board;
                let after = solver.solve(&child, -65, 65, &NEVER).unwrap().score;
                assert_eq!(-after, exact, "seed {seed}: {mv} keeps the score");
            }
        }
        collections += prover.table_stats().collections;
    }
    assert!(questions >= 2900);
    assert!(
        collections > 0,
        "the small tables filled up and were collected"
    );
}

/// Win/draw/loss from a fresh prover, so its questions are asked rather than read from
/// bounds: random endgames with a guess at every size, each answer and each question
/// against the alpha-beta solver; a draw asks both, and where the guess expected a win or
/// a draw, "a win?" first.
#[test]
fn wld_questions_against_alpha_beta() {
    let solver = Solver::new(16);
    let mut rng = SmallRng::seed_from_u64(56);
    let mut draws_disproved_first = 0;
    for seed in 0..300u64 {
        let Some((position, exact)) = random_endgame(&solver, &mut rng, 20_000 + seed, 46..=50)
        else {
            continue;
        };
        let board: Board = position.board;
        let mut prover = Prover::new(Options {
            leaf_empties: 6,
            table_mb: 4,
            leaf_table_mb: 1,
            guess_empties: 0,
            tree_threads: 1,
            ..Options::default()
        });
        let (wld, _, steps) = prover.wld(&board, &NEVER).unwrap();
        assert_eq!(wld, Wld::of_score(exact), "seed {seed}");
        assert_steps_answered(&steps, exact, &format!("seed {seed} {steps:?}"));
        // Each question's own nodes: together less than the prover's, which also counts
        // the guess (asked here at every size) and the search for a move that keeps it.
        let asked: u64 = steps.iter().map(|s| s.nodes).sum();
        assert!(
            asked < prover.stats().nodes(),
            "seed {seed}: questions {asked} nodes of {}",
            prover.stats().nodes()
        );
        if exact == 0 {
            assert_eq!(steps.len(), 2, "seed {seed}: a draw needs both questions");
            draws_disproved_first += usize::from(steps[0].threshold == 2);
        } else {
            assert!(!steps.is_empty(), "seed {seed}: no question asked");
        }
    }
    assert!(
        draws_disproved_first >= 5,
        "draws guessed right ask \"a win?\" first: {draws_disproved_first}"
    );
}

/// Proofs of random endgames, true and false claims, pass the independent checker.
#[test]
fn proofs_check() {
    let solver = Solver::new(16);
    let mut rng = SmallRng::seed_from_u64(7);
    let mut answers = [0; 2];
    let mut early_leaves = 0;
    for seed in 0..30u64 {
        let Some((position, exact)) = random_endgame(&solver, &mut rng, 50_000 + seed, 44..=48)
        else {
            continue;
        };
        let t = exact + [0, 2][rng.random_range(0..2)];
        // Half the proofs with leaves decided early where the evaluation is far above t.
        let mut prover = Prover::new(Options {
            leaf_empties: 6,
            easy_leaf_empties: [0, 12][seed as usize % 2],
            easy_margin: 4,
            table_mb: 8,
            leaf_table_mb: 4,
            ..Options::default()
        });
        let proof = prover.proof(&position, t, &NEVER).unwrap();
        let file = proof.to_file();
        let verified = check(&file, &solver, dfpn::proof::CHECK_LEAF_EMPTIES)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(verified.holds, exact >= t);
        answers[verified.holds as usize] += 1;
        early_leaves += file
            .nodes
            .iter()
            .filter(|n| n.children.is_empty())
            .map(|n| {
                n.position
                    .parse::<Obf>()
                    .expect("a written position")
                    .position
                    .board
            })
            .filter(|leaf| !leaf.is_game_over() && leaf.empty_count() > 6)
            .count();
        // Another threshold's claim does not pass for this one.
        let mut tampered = file.clone();
        tampered.nodes[0].threshold += if verified.holds { 2 } else { -2 };
        assert!(
            check(&tampered, &solver, dfpn::proof::CHECK_LEAF_EMPTIES).is_err(),
            "seed {seed}"
        );
    }
    assert!(answers[0] > 3 && answers[1] > 3, "{answers:?}");
    assert!(early_leaves > 0, "some proofs have leaves decided early");
}

/// A node with 33 children (the published maximum, black to move after 26 plies): the
/// proof-number tree holds them all (it once had room for 32 and panicked), and its
/// answer agrees with alpha-beta's.
#[test]
fn a_node_with_33_moves() {
    let game = "f5d6c4f3c5b4b3e6c6g5f6c7c3d2c2b2f4g4g3g7g6e7d3g2h3b6";
    let board = input::parse_position("test", game)
        .unwrap()
        .0
        .position
        .board;
    assert_eq!(board.mobility(), 33);
    let mut prover = Prover::new(Options {
        initial: Initial::Mobility,
        guess_empties: 61,
        table_mb: 16,
        leaf_table_mb: 16,
        ..Options::default()
    });
    let t = -40;
    let proven = prover.prove(&board, t, &NEVER).unwrap();
    let bound = Solver::new(16)
        .null_window(&board, t - 1, Stop::new(&NEVER), true)
        .0
        .unwrap();
    assert_eq!(proven, bound >= t);
}
