//! Reachability, each method against the others: the cheap refutations never refute a
//! position of a real game; satgen's real-rules question agrees with the exhaustive
//! enumeration where that decides; the decider answers by SAT alone with replayed
//! witnesses and UNSAT where the enumeration says no.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::{Game, Position};
use rand::{rngs::SmallRng, RngExt, SeedableRng};
use retro::{decide, Frontier, Method, Options, SatSolver};
use satgen::target::{decode_target, encode_target, Cube};

/// 10^5 positions of random games (passes and finished games among them): no refutation
/// fires on any.
#[test]
fn refutations_never_fire_on_game_positions() {
    let mut checked = 0;
    let mut seed = 0;
    while checked < 100_000 {
        let game = Game::random(&mut SmallRng::seed_from_u64(seed), 60);
        for p in &game.positions {
            assert_eq!(
                retro::refute(p),
                None,
                "seed {seed}: {}",
                engine::Obf::new(*p)
            );
            checked += 1;
        }
        seed += 1;
    }
}

/// Positions of random games (every 5th of 150 games with passes and finished games among
/// them): the flip accounting accounts for every one.
#[test]
fn accounting_never_refutes_game_positions() {
    use rayon::prelude::*;
    let refuted: Vec<String> = (0..150u64)
        .into_par_iter()
        .flat_map_iter(|seed| {
            let game = Game::random(&mut SmallRng::seed_from_u64(1_000 + seed), 60);
            game.positions
                .into_iter()
                .skip(seed as usize % 5)
                .step_by(5)
                .filter(|p| satgen::accounting::accounting_refutes(p).is_some())
                .map(|p| engine::Obf::new(p).to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(refuted.is_empty(), "{refuted:?}");
}

/// A position of a random game with `discs` discs, changed at random: one disc's colour
/// swapped, one disc added next to the others, or the side to move switched (or left as
/// it is). Near misses, most of them unreachable, some still reachable.
fn near_miss(rng: &mut SmallRng, discs: u32) -> Position {
    let p = retro::sample::random_game_positions(discs, 1, rng.random())[0];
    let (mut black, mut white) = p.discs();
    let mut side = p.side;
    let occupied = black | white;
    match rng.random_range(0..4) {
        0 => {
            let squares: Vec<u32> = (0..64).filter(|s| occupied >> s & 1 == 1).collect();
            let bit = 1u64 << squares[rng.random_range(0..squares.len())];
            black ^= bit;
            white ^= bit;
        }
        1 => {
            let around = engine::board::neighbours(occupied);
            let squares: Vec<u32> = (0..64).filter(|s| around >> s & 1 == 1).collect();
            let bit = 1u64 << squares[rng.random_range(0..squares.len())];
            if rng.random() {
                black |= bit;
            } else {
                white |= bit;
            }
        }
        2 => side = side.other(),
        _ => {}
    }
    Position::from_colors(black, white, side)
}

/// Up to 12 discs the backward search meets the enumeration of every reachable position
/// at once: the exact answer. SAT (varisat) agrees on every near miss, both ways, and its
/// witnesses replay.
#[test]
fn sat_agrees_with_the_exhaustive_enumeration() {
    let frontier = Frontier::new(12).unwrap();
    let never = AtomicBool::new(false);
    let mut rng = SmallRng::seed_from_u64(11);
    let mut answers = [0; 2];
    for i in 0..400 {
        let discs = 6 + i % 7;
        let p = near_miss(&mut rng, discs);
        let exact = retro::reach(&frontier, &p, 1 << 20, u64::MAX, &never)
            .unwrap()
            .witness
            .is_some();
        let question = encode_target(&p, Cube::default());
        let model = satgen::solve::varisat(&question.formula);
        assert_eq!(model.is_some(), exact, "{}", engine::Obf::new(p));
        if let Some(model) = model {
            let witness = decode_target(&question.layout, &model).unwrap();
            let mut q = Position::START;
            for mv in witness {
                q = q.play(mv).unwrap();
            }
            assert_eq!(q, p);
        }
        answers[exact as usize] += 1;
    }
    assert!(answers[0] > 60 && answers[1] > 60, "{answers:?}");
}

/// The decider with the backward search given no nodes: SAT alone (varisat) decides
/// positions of random games with 16-22 discs (reachable, witnesses replayed) and near
/// misses that the enumeration refutes at 14 discs and the cheaper stages do not (UNSAT),
/// with the whole question first or last.
#[test]
fn decider_answers_by_sat_alone() {
    let frontier = Frontier::new(14).unwrap();
    let never = AtomicBool::new(false);
    let options = Options {
        workers: 2,
        solvers: vec![SatSolver::Varisat],
        backward_nodes: 0,
        memo_entries: 1 << 20,
        quick_nodes: 0,
        time_limit: Some(Duration::from_secs(300)),
        cpu_limit: None,
        trust_unsat: false,
        whole_first: false,
        checker: satgen::proof::Checker::Builtin,
    };
    // The last position of each kind with the whole question first (`whole_first`),
    // which must find the games and refute as well; the others with the parts first.
    let whole_first = Options {
        whole_first: true,
        ..options.clone()
    };
    let order = |i: usize| if i == 2 { &whole_first } else { &options };
    for (i, (discs, seed)) in [(16, 1), (19, 2), (22, 3)].into_iter().enumerate() {
        let p = retro::sample::random_game_positions(discs, 1, seed)[0];
        let d = decide(&frontier, &p, order(i), &never, None).unwrap();
        assert_eq!((d.reachable, d.method), (Some(true), Some(Method::Sat)));
        let mut q = Position::START;
        for &mv in d.witness.as_ref().unwrap() {
            q = q.play(mv).unwrap();
        }
        assert_eq!(q, p);
    }
    let mut rng = SmallRng::seed_from_u64(5);
    let proofs = tempfile::tempdir().unwrap();
    let mut refuted = 0;
    while refuted < 3 {
        let p = near_miss(&mut rng, 14);
        if retro::refute(&p).is_some()
            || satgen::accounting::accounting_refutes(&p).is_some()
            || retro::reach(&frontier, &p, 1 << 20, u64::MAX, &never)
                .unwrap()
                .witness
                .is_some()
        {
            continue;
        }
        // The first keeps its question and proof, which check again; the others' proofs
        // are checked and dropped.
        let keep = (refuted == 0).then(|| proofs.path().join("near-miss"));
        let d = decide(&frontier, &p, order(refuted), &never, keep.as_deref()).unwrap();
        assert_eq!((d.reachable, d.method), (Some(false), Some(Method::Sat)));
        assert_eq!(d.proof_checked, Some(true));
        let certificate = d.certificate.unwrap();
        assert!(certificate.starts_with("UNSAT by varisat"), "{certificate}");
        assert!(certificate.contains("varisat proof of"), "{certificate}");
        assert_eq!(d.proof.is_some(), keep.is_some());
        if let Some(proof) = d.proof {
            assert_eq!(proof, proofs.path().join("near-miss.varisat"));
            let cnf = proof.with_extension("cnf");
            let checked = satgen::proof::check_files(&cnf, &proof, Default::default());
            assert_eq!(checked.unwrap().format, satgen::proof::Format::Varisat);
        }
        refuted += 1;
    }
    // Undecided within the limit: UNKNOWN, not a hang.
    let late = Options {
        time_limit: Some(Duration::ZERO),
        cpu_limit: None,
        ..options
    };
    let p = retro::sample::random_game_positions(40, 1, 9)[0];
    let d = decide(&frontier, &p, &late, &never, None).unwrap();
    assert_eq!(d.reachable, None);
    assert_eq!(d.certificate.as_deref(), Some("time limit"));
}
