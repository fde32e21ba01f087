//! The maximum-mobility curve: for each ply P, the most legal moves a position after
//! exactly P plies can give the side to move. Plies are those of satgen's questions (a
//! pass is a ply, so black moves at even plies and white at odd ones). Each point is found
//! by climbing exact-ply questions: SAT at N gives a game whose position after P plies has
//! m >= N moves (the next question asks m + 1); UNSAT at N bounds the maximum below N. A
//! point is certified by a witness game (replayed by the core) and the UNSAT of
//! maximum + 1 (with its checked proof where the solver writes one).

use engine::{Color, Move, Position};

use crate::decode::{decode_exact, DecodeError};
use crate::encode::{encode, Encoded, Encoding, Question, SideFilter};
use crate::solve::Outcome;

/// Why a point was not found: a witness that does not hold (the given game's, or a
/// model's), or the error `E` of the solver that answers the questions.
#[derive(Debug, thiserror::Error)]
pub enum ClimbError<E> {
    /// The given game has another number of plies than the point.
    #[error("ply {ply}: the given game has {plies} plies")]
    GameLength {
        /// The point's ply.
        ply: usize,
        /// The game's.
        plies: usize,
    },
    /// The given game does not replay to a position of the ply's side.
    #[error("ply {ply}: the given game: {error}")]
    GivenGame {
        /// The point's ply.
        ply: usize,
        /// Why.
        error: ReplayError,
    },
    /// A model that does not decode to a game.
    #[error("ply {ply}: model rejected: {error}")]
    Model {
        /// The point's ply.
        ply: usize,
        /// Why.
        error: DecodeError,
    },
    /// A model's game that the core does not replay to a position of the ply's side.
    #[error("ply {ply}: witness rejected: {error}")]
    Witness {
        /// The point's ply.
        ply: usize,
        /// Why.
        error: ReplayError,
    },
    /// A model's game that replays to fewer moves than asked.
    #[error("ply {ply}: the model's game has {mobility} moves, not {wanted}")]
    TooFewMoves {
        /// The point's ply.
        ply: usize,
        /// The moves it reaches.
        mobility: u32,
        /// The moves asked.
        wanted: u32,
    },
    /// The solver's error.
    #[error("{0}")]
    Solve(E),
}

/// Why a game does not replay to a position of its ply's side.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move the core refuses.
    #[error("{mv}: {kind}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why it is not legal.
        kind: engine::ParseErrorKind,
    },
    /// A pass moved the turn: the side to move is not the one of the ply.
    #[error("the side to move is not the ply's")]
    WrongSide,
}

/// One question asked on the way.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Asked {
    /// At least this many moves after exactly the point's plies?
    pub mobility: u32,
    /// SAT, UNSAT or UNKNOWN (stopped by the time limit or an interrupt).
    pub result: &'static str,
    /// The solver's time.
    pub seconds: f64,
    /// The checked proof of an UNSAT, where one was asked for.
    pub proof: Option<String>,
    /// For an UNSAT: whether its proof was checked (false: the solver's word, no
    /// `--proof`); absent for the other answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_checked: Option<bool>,
}

/// One point of the curve, as far as it got.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    /// Plies from the start (a pass is a ply).
    pub ply: usize,
    /// Who moves after `ply` plies: black at even plies.
    pub side: &'static str,
    /// The maximum, once a witness reaches it and one more is UNSAT.
    pub max: Option<u32>,
    /// The most moves a witness reached (its game replayed by the core).
    pub lower: u32,
    /// The witness game (moves in the `f5d6` form, `ps` for a pass).
    pub witness: String,
    /// Whether the witness was given (a known game, replayed by the core like the
    /// solver's) rather than found: the climb then starts at its count.
    pub witness_given: bool,
    /// The fewest moves proven impossible (UNSAT), if any.
    pub impossible: Option<u32>,
    /// Whether a checked proof stands behind `impossible` (and so behind `max`); false:
    /// the solver's word. Absent without an UNSAT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_checked: Option<bool>,
    /// The questions asked, in order.
    pub questions: Vec<Asked>,
    /// The point's time in all.
    pub seconds: f64,
}

/// The exact-ply question at `ply` for at least `mobility` moves (the first move fixed to
/// f5 by symmetry, the rays encoding).
pub fn question(ply: usize, mobility: u32) -> Question {
    Question {
        plies: ply,
        mobility: mobility as usize,
        side: if ply % 2 == 0 {
            SideFilter::Black
        } else {
            SideFilter::White
        },
        symmetry_break: ply > 0,
        encoding: Encoding::Rays,
        exact_ply: true,
    }
}

/// Where a point's questions start from above instead of only climbing from below.
#[derive(Clone, Copy, Debug)]
pub struct FromAbove {
    /// The first question (34 bounds every ply to 42: the mobility-34 cubes). Its UNSAT
    /// bounds the point from above, its SAT gives a witness of at least this many.
    pub ceiling: u32,
    /// Go on between the witness and the bound: each question asks the middle of what is
    /// neither witnessed nor refuted (rounded up), until the point is settled; an
    /// unanswered question moves the next ones above it (refuting gets easier further
    /// above the maximum), until none is left to ask.
    pub bisect: bool,
    /// The fewest moves earlier runs proved impossible (their rows keep the proofs): the
    /// bisection starts below it, and the ceiling is not asked again at or above it.
    pub known_impossible: Option<u32>,
}

/// Climbs to the maximum at `ply`, asking `solve` each question (with its encoding); its
/// outcome and, for an UNSAT, where the proof was kept. Ends at the maximum or at the
/// first question `solve` leaves unanswered (`Outcome::Stopped`). A `known` game of
/// exactly `ply` plies (a published witness) is the first witness: the climb asks one
/// move more than it reaches. With `from_above`, the questions start at its ceiling
/// instead, and without bisection that is the only one: where the climb's next
/// questions take hours, the ceiling still bounds the point at the cost of one question.
/// `interrupted` says whether an unanswered question was stopped by the user rather than
/// by its time limit: a bisection then asks nothing more.
pub fn climb<E>(
    ply: usize,
    known: Option<&[Move]>,
    from_above: Option<FromAbove>,
    interrupted: impl Fn() -> bool,
    mut solve: impl FnMut(&Question, &Encoded) -> Result<(Outcome, Option<String>), E>,
) -> Result<Point, ClimbError<E>> {
    let start = std::time::Instant::now();
    let mut point = Point {
        ply,
        side: if ply % 2 == 0 { "black" } else { "white" },
        max: None,
        lower: 0,
        witness: String::new(),
        witness_given: false,
        impossible: None,
        proof_checked: None,
        questions: Vec::new(),
        seconds: 0.0,
    };
    // Any position has at least 0 moves: without a known game the first question asks
    // for 1.
    let mut witnessed = false;
    if let Some(game) = known {
        if game.len() != ply {
            return Err(ClimbError::GameLength {
                ply,
                plies: game.len(),
            });
        }
        point.lower =
            replayed_mobility(game).map_err(|error| ClimbError::GivenGame { ply, error })?;
        point.witness = engine::game::format_moves(game);
        point.witness_given = true;
        witnessed = true;
    }
    let mut asked_ceiling =
        from_above.is_none_or(|a| a.known_impossible.is_some_and(|known| known <= a.ceiling));
    let bisect = from_above.is_some_and(|a| a.bisect);
    // The fewest moves worth asking after an unanswered question (bisecting).
    let mut floor = 0;
    loop {
        // The fewest moves no witness reaches yet.
        let above = point.lower + u32::from(witnessed);
        if point.impossible == Some(above) {
            point.max = Some(point.lower);
            break;
        }
        let wanted = match from_above {
            None => above,
            Some(a) if !asked_ceiling => a.ceiling,
            Some(a) if a.bisect => {
                let known = [point.impossible, a.known_impossible];
                let Some(bound) = known.into_iter().flatten().min() else {
                    break;
                };
                let low = above.max(floor);
                if low >= bound {
                    break;
                }
                (low + bound - 1).div_ceil(2)
            }
            Some(_) => break,
        };
        asked_ceiling = true;
        let q = question(ply, wanted);
        let encoded = encode(&q);
        let asked = std::time::Instant::now();
        let (outcome, proof) = solve(&q, &encoded).map_err(ClimbError::Solve)?;
        let result = match &outcome {
            Outcome::Sat(_) => "SAT",
            Outcome::Unsat => "UNSAT",
            Outcome::Stopped => "UNKNOWN",
        };
        let checked = proof.is_some();
        point.questions.push(Asked {
            mobility: wanted,
            result,
            seconds: asked.elapsed().as_secs_f64(),
            proof,
            proof_checked: (result == "UNSAT").then_some(checked),
        });
        match outcome {
            Outcome::Sat(model) => {
                let game = decode_exact(&encoded.layout, &model, ply)
                    .map_err(|error| ClimbError::Model { ply, error })?;
                let mobility = replayed_mobility(&game.moves)
                    .map_err(|error| ClimbError::Witness { ply, error })?;
                if mobility < wanted {
                    return Err(ClimbError::TooFewMoves {
                        ply,
                        mobility,
                        wanted,
                    });
                }
                point.lower = mobility;
                point.witness = engine::game::format_moves(&game.moves);
                point.witness_given = false;
                witnessed = true;
            }
            Outcome::Unsat => {
                point.impossible = Some(wanted);
                point.proof_checked = Some(checked);
            }
            // Stopped by its time limit, not by an interrupt (which ends the point).
            Outcome::Stopped if bisect && !interrupted() => floor = wanted + 1,
            Outcome::Stopped => break,
        }
    }
    point.seconds = start.elapsed().as_secs_f64();
    Ok(point)
}

/// The core's replay of a witness: the mobility of the side to move at its end. Passes
/// are the core's too (only without a legal move).
fn replayed_mobility(moves: &[Move]) -> Result<u32, ReplayError> {
    let mut position = Position::START;
    for &mv in moves {
        position = position
            .play(mv)
            .map_err(|kind| ReplayError::Illegal { mv, kind })?;
    }
    let expected = if moves.len() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    if position.side != expected {
        return Err(ReplayError::WrongSide);
    }
    Ok(position.board.mobility())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::reference::max_mobility_exactly;

    /// What the tests' solvers answer.
    type Answer = Result<(Outcome, Option<String>), std::convert::Infallible>;

    /// Answers a question with the embedded varisat.
    fn by_varisat(_: &Question, encoded: &Encoded) -> Answer {
        let model = crate::solve::varisat(&encoded.formula);
        Ok((model.map_or(Outcome::Unsat, Outcome::Sat), None))
    }

    /// Answers the first question with varisat and leaves every later one unanswered.
    fn only_the_first_answered() -> impl FnMut(&Question, &Encoded) -> Answer {
        let mut asked = 0;
        move |q, encoded| {
            asked += 1;
            if asked == 1 {
                by_varisat(q, encoded)
            } else {
                Ok((Outcome::Stopped, None))
            }
        }
    }

    /// The counts a point asked, in order.
    fn asked(point: &Point) -> Vec<u32> {
        point.questions.iter().map(|q| q.mobility).collect()
    }

    /// The first points of the curve by varisat equal brute force, each with a witness
    /// at the maximum and the UNSAT of one more.
    #[test]
    fn first_points_match_brute_force() {
        for ply in 0..=6 {
            let point = climb(ply, None, None, || false, by_varisat).unwrap();
            let most = max_mobility_exactly(&engine::Board::START, ply as u32);
            assert_eq!(point.max, Some(most), "ply {ply}");
            assert_eq!(point.impossible, Some(most + 1));
            let game = engine::Game::replay(Position::START, &point.witness).unwrap();
            assert_eq!(game.moves.len(), ply);
            assert_eq!(game.last().board.mobility(), most);
            assert_eq!(point.questions.last().unwrap().result, "UNSAT");
        }
    }

    /// A question left unanswered ends the climb with the bounds so far.
    #[test]
    fn a_stopped_question_leaves_the_bounds() {
        let point = climb(4, None, None, || false, only_the_first_answered()).unwrap();
        assert_eq!(point.max, None);
        assert!(point.lower >= 1);
        assert_eq!(point.impossible, None);
        assert_eq!(point.questions.len(), 2);
        assert_eq!(point.questions[1].result, "UNKNOWN");
    }

    /// A known game starts the climb at its count: the first question asks one more; a
    /// game of another length, or whose side to move is not the ply's, is refused.
    #[test]
    fn a_known_game_starts_the_climb() {
        let game = engine::Game::replay(Position::START, "f5d6c3d3c4").unwrap();
        let reached = game.last().board.mobility();
        let point = climb(5, Some(&game.moves), None, || false, by_varisat).unwrap();
        assert_eq!(asked(&point)[0], reached + 1);
        assert_eq!(
            point.max,
            Some(max_mobility_exactly(&engine::Board::START, 5))
        );
        assert!(
            point.lower > reached,
            "f5d6c3d3c4 is not the best after 5 plies"
        );
        assert!(!point.witness_given);
        let never = |_: &Question, _: &Encoded| -> Answer {
            unreachable!("no question for a refused game")
        };
        assert!(matches!(
            climb(4, Some(&game.moves), None, || false, never),
            Err(ClimbError::GameLength { ply: 4, plies: 5 })
        ));
        let with_pass = [Move::Pass];
        assert!(matches!(
            climb(1, Some(&with_pass), None, || false, never),
            Err(ClimbError::GivenGame {
                ply: 1,
                error: ReplayError::Illegal { .. }
            })
        ));
    }

    /// A ceiling is the one question asked: its UNSAT bounds the point (and settles it
    /// where the witness reaches one less), its SAT raises the witness to it.
    #[test]
    fn a_ceiling_asks_one_question() {
        let most = max_mobility_exactly(&engine::Board::START, 5);
        let ceiling = |ceiling| {
            Some(FromAbove {
                ceiling,
                bisect: false,
                known_impossible: None,
            })
        };
        let weak = engine::Game::replay(Position::START, "f5d6c3d3c4").unwrap();
        let reached = weak.last().board.mobility();
        assert!(reached + 1 < most);
        let bounded = climb(
            5,
            Some(&weak.moves),
            ceiling(most + 1),
            || false,
            by_varisat,
        )
        .unwrap();
        assert_eq!(bounded.questions.len(), 1);
        assert_eq!(bounded.questions[0].result, "UNSAT");
        assert_eq!(
            (bounded.max, bounded.lower, bounded.impossible),
            (None, reached, Some(most + 1))
        );
        let best = engine::Game::replay(Position::START, "d3c5d6e3f4").unwrap();
        assert_eq!(best.last().board.mobility(), most);
        let settled = climb(
            5,
            Some(&best.moves),
            ceiling(most + 1),
            || false,
            by_varisat,
        )
        .unwrap();
        assert_eq!((settled.max, settled.questions.len()), (Some(most), 1));
        let raised = climb(5, Some(&weak.moves), ceiling(most), || false, by_varisat).unwrap();
        assert_eq!(raised.questions.len(), 1);
        assert_eq!(
            (raised.max, raised.lower, raised.impossible),
            (None, most, None)
        );
        let game = engine::Game::replay(Position::START, &raised.witness).unwrap();
        assert_eq!(game.last().board.mobility(), most);
    }

    /// Bisecting below a ceiling: each question the middle of what is neither witnessed
    /// nor refuted, until the point is settled; an unanswered question moves the next ones
    /// above it; a bound of earlier runs is where the bisection starts.
    #[test]
    fn a_bisection_below_the_ceiling_settles_the_point() {
        let most = max_mobility_exactly(&engine::Board::START, 5);
        let bisect = |ceiling, known_impossible| {
            Some(FromAbove {
                ceiling,
                bisect: true,
                known_impossible,
            })
        };
        let weak = engine::Game::replay(Position::START, "f5d6c3d3c4").unwrap();
        let reached = weak.last().board.mobility();
        let point = climb(
            5,
            Some(&weak.moves),
            bisect(most + 6, None),
            || false,
            by_varisat,
        )
        .unwrap();
        let asked_first = asked(&point);
        assert_eq!((point.max, point.impossible), (Some(most), Some(most + 1)));
        let game = engine::Game::replay(Position::START, &point.witness).unwrap();
        assert_eq!(game.last().board.mobility(), most);
        // The ceiling, then the middle of (reached, most + 6), each answer halving the rest.
        assert_eq!(
            asked_first[..2],
            [most + 6, (reached + 1 + most + 5).div_ceil(2)]
        );
        assert!(
            asked_first.len() < (most + 6 - reached) as usize,
            "{asked_first:?}"
        );
        // A bound of earlier runs: no ceiling question, the bisection starts below it.
        let bounded = bisect(most + 6, Some(most + 2));
        let point = climb(5, Some(&weak.moves), bounded, || false, by_varisat).unwrap();
        assert_eq!(asked(&point)[0], (reached + 1 + most + 1).div_ceil(2));
        assert_eq!(point.max, Some(most));
        // Unanswered questions move the next ones up, to the bound.
        let point = climb(
            5,
            Some(&weak.moves),
            bisect(most + 6, None),
            || false,
            only_the_first_answered(),
        )
        .unwrap();
        let counts = asked(&point);
        assert_eq!((point.max, point.impossible), (None, Some(most + 6)));
        assert_eq!(*counts.last().unwrap(), most + 5);
        assert!(counts.windows(2).skip(1).all(|w| w[0] < w[1]), "{counts:?}");
        // A question stopped by an interrupt ends the point.
        let point = climb(
            5,
            Some(&weak.moves),
            bisect(most + 6, None),
            || true,
            only_the_first_answered(),
        )
        .unwrap();
        assert_eq!(point.questions.len(), 2);
    }
}
