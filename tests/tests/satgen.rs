//! satgen's SAT/UNSAT boundary against retro's brute-force maximum mobility (independent:
//! enumeration of every reachable position), with every model decoded and replayed.

use engine::{Board, Move, Square};
use rand::{rngs::SmallRng, RngExt, SeedableRng};
use satgen::decode::replay_variant;
use satgen::dimacs::move_index;
use satgen::{decode, encode, Encoding, Question, SideFilter};

#[test]
fn boundary_matches_the_enumerated_maximum() {
    for (encoding, plies) in Encoding::ALL.into_iter().flat_map(|e| [(e, 5u32), (e, 6)]) {
        let most = retro::max_mobility(plies, 1 << 20).unwrap().mobility as usize;
        for (mobility, sat) in [(most, true), (most + 1, false)] {
            let q = Question {
                plies: plies as usize,
                mobility,
                side: SideFilter::Any,
                symmetry_break: true,
                encoding,
                exact_ply: false,
            };
            let encoded = encode(&q);
            let model = satgen::solve::varisat(&encoded.formula);
            assert_eq!(
                model.is_some(),
                sat,
                "{encoding:?}, {plies} plies, mobility {mobility}"
            );
            if let Some(model) = model {
                let game =
                    decode(&encoded.layout, &model, mobility as u32, SideFilter::Any).unwrap();
                assert_eq!(game.mobility as usize, most);
                let replayed = engine::Game::replay(
                    engine::Position::START,
                    &engine::game::format_moves(&game.moves),
                )
                .unwrap();
                assert_eq!(replayed.last().board.mobility() as usize, most);
            }
        }
    }
}

/// A game of the variant rules (a pass only without a legal move; play goes on when
/// neither side can move) in which passes are common: a move that leaves the opponent no
/// move whenever there is one, else, three times in four, one that leaves the fewest, else
/// a random one.
fn game_with_passes(rng: &mut SmallRng, plies: usize) -> Vec<Move> {
    let mut board = Board::START;
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal: Vec<Square> = engine::Bitboard(board.moves()).collect();
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            let reply = |sq: &Square| board.play(*sq).expect("legal").mobility();
            let fewest = legal.iter().map(reply).min().expect("a move");
            let pick = if fewest == 0 || rng.random_range(0..4) != 0 {
                legal
                    .iter()
                    .copied()
                    .filter(|sq| reply(sq) == fewest)
                    .collect()
            } else {
                legal
            };
            Move::Play(pick[rng.random_range(0..pick.len())])
        };
        board = match mv {
            Move::Pass => board.pass(),
            Move::Play(sq) => board.play(sq).expect("legal"),
        };
        moves.push(mv);
    }
    moves
}

/// Whether a side passes and the other then plays on: a pass inside the game, not the
/// passes after it is over.
fn passes_mid_game(moves: &[Move]) -> bool {
    moves
        .windows(2)
        .any(|w| w[0] == Move::Pass && w[1] != Move::Pass)
}

/// Both encodings against the core on full-length games (42 and 60 plies) drawn so that
/// passes are common: with every move fixed (as assumptions to one incremental varisat per
/// encoding and length), the formula is SAT and its discs and legal-move literals are the
/// core's at every ply; a pass where a move exists, a move where the side must pass, an
/// occupied square and an empty square that flips nothing are each UNSAT. Then, after
/// mid-game passes, the exact-ply question counts the core's mobility there (SAT) and no
/// more (UNSAT). `SATGEN_ENCODING_GAMES` games per encoding and length (default 12; the
/// thousand-game run is in results/satgen.md).
#[test]
fn encodings_follow_the_core_through_passes() {
    let games: usize = std::env::var("SATGEN_ENCODING_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let mut rng = SmallRng::seed_from_u64(42);
    let mut with_passes = 0;
    let mut exact_checked = 0;
    for plies in [42, 60] {
        for encoding in Encoding::ALL {
            let encoded = encode(&Question {
                plies,
                mobility: 0,
                side: SideFilter::Any,
                symmetry_break: false,
                encoding,
                exact_ply: false,
            });
            let to_varisat =
                |l: rustsat::types::Lit| varisat::Lit::from_dimacs(l.to_ipasir() as isize);
            let mut solver = varisat::Solver::new();
            for clause in encoded.formula.cnf.iter() {
                let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
                varisat::ExtendFormula::add_clause(&mut solver, &lits);
            }
            let fixed = |moves: &[Move], last: Option<Move>| {
                let mut lits: Vec<varisat::Lit> = moves
                    .iter()
                    .chain(last.iter())
                    .enumerate()
                    .map(|(i, &mv)| to_varisat(encoded.layout.moves[i][move_index(mv)]))
                    .collect();
                let n = moves.len() + usize::from(last.is_some());
                lits.extend(encoded.active[..=n].iter().map(|&l| to_varisat(l)));
                lits
            };
            for g in 0..games {
                // Three games in four are drawn until one passes mid-game (about one in
                // four does at 42 plies, two in three at 60).
                let moves = loop {
                    let moves = game_with_passes(&mut rng, plies);
                    if g % 4 == 0 || passes_mid_game(&moves) {
                        break moves;
                    }
                };
                with_passes += usize::from(passes_mid_game(&moves));
                let boards = replay_variant(&moves).unwrap();
                solver.assume(&fixed(&moves, None));
                assert!(
                    solver.solve().unwrap(),
                    "{encoding:?} {plies} plies, game {g}"
                );
                let mut values = vec![false; encoded.formula.variables() as usize];
                for l in solver.model().unwrap() {
                    values[l.var().index()] = l.is_positive();
                }
                let bits = |block: &[rustsat::types::Lit]| {
                    (0..64).fold(0u64, |acc, s| {
                        let l = block[s];
                        acc | ((values[l.var().idx()] != l.is_neg()) as u64) << s
                    })
                };
                for (i, board) in boards.iter().enumerate() {
                    let (black, white) = if i % 2 == 0 {
                        (board.player, board.opponent)
                    } else {
                        (board.opponent, board.player)
                    };
                    let at = format!("{encoding:?} {plies} plies, game {g}, ply {i}");
                    assert_eq!(bits(&encoded.layout.black[i]), black, "{at}");
                    assert_eq!(bits(&encoded.layout.white[i]), white, "{at}");
                    assert_eq!(bits(&encoded.legal[i]), board.moves(), "{at}");
                }
                // An illegal move at a random ply, and at the first pass if there is one.
                let first_pass = moves.iter().position(|&m| m == Move::Pass);
                for ply in [rng.random_range(0..plies)].into_iter().chain(first_pass) {
                    let board = boards[ply];
                    let empty = !(board.player | board.opponent);
                    let mut illegal = vec![Move::Play(
                        Square::new((board.player | board.opponent).trailing_zeros()).unwrap(),
                    )];
                    if board.moves() == 0 {
                        illegal.extend(Square::new(empty.trailing_zeros()).map(Move::Play));
                    } else {
                        illegal.push(Move::Pass);
                        let no_flip = empty & !board.moves();
                        illegal.extend(Square::new(no_flip.trailing_zeros()).map(Move::Play));
                    }
                    for mv in illegal {
                        solver.assume(&fixed(&moves[..ply], Some(mv)));
                        assert!(
                            !solver.solve().unwrap(),
                            "{encoding:?} {plies} plies, game {g}: {mv} at ply {ply} is illegal"
                        );
                    }
                }
                // The exact-ply question just after a mid-game pass (a few games).
                let after_pass = moves
                    .windows(2)
                    .position(|w| w[0] == Move::Pass && w[1] != Move::Pass)
                    .map(|i| i + 1);
                if let Some(ply) = after_pass.filter(|_| exact_checked < 4 && plies == 42) {
                    exact_checked += 1;
                    let mobility = boards[ply].mobility() as usize;
                    for (wanted, sat) in [(mobility, true), (mobility + 1, false)] {
                        let mut q = encode(&Question {
                            plies: ply,
                            mobility: wanted,
                            side: if ply % 2 == 0 {
                                SideFilter::Black
                            } else {
                                SideFilter::White
                            },
                            symmetry_break: false,
                            encoding,
                            exact_ply: true,
                        });
                        for (i, &mv) in moves[..ply].iter().enumerate() {
                            q.formula.clause(&[q.layout.moves[i][move_index(mv)]]);
                        }
                        assert_eq!(
                            satgen::solve::varisat(&q.formula).is_some(),
                            sat,
                            "{encoding:?}: {wanted} moves at ply {ply} after a pass"
                        );
                    }
                }
            }
        }
    }
    assert!(
        with_passes * 4 >= games * 4 * 3,
        "{with_passes} of {} games pass mid-game",
        games * 4
    );
    assert_eq!(exact_checked, 4);
}

/// The first points of the maximum-mobility curve by SAT (varisat climbing exact-ply
/// questions) equal retro's enumeration of every position after exactly that many plies,
/// for both sides (black at even plies, white at odd).
#[test]
fn curve_matches_the_enumeration() {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let exhaustive =
        retro::maxmob::max_mobility_by_ply(6, 6, None, 1 << 20, None, &stop, &|_, _| ()).unwrap();
    for m in exhaustive {
        let point = satgen::curve::climb(
            m.ply,
            None,
            None,
            || false,
            |_, encoded| {
                let model = satgen::solve::varisat(&encoded.formula);
                Ok::<_, std::convert::Infallible>((
                    model.map_or(satgen::solve::Outcome::Unsat, satgen::solve::Outcome::Sat),
                    None,
                ))
            },
        )
        .unwrap();
        assert_eq!(point.max, Some(m.mobility), "ply {}", m.ply);
    }
}
