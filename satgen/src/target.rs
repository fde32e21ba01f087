//! "A legal game from the start reaches exactly this position" as CNF, under the real
//! rules: a pass only when the side to move has no legal move, the game over when neither
//! side has one. One step per disc placed (the target fixes their number); the colour of
//! the side to move is a variable per step, set by the pass rule from both sides' legal
//! moves, so one formula covers every number of passes and every place they fall.
//!
//! Per step `j` (position `j` has `4 + j` discs): black and white discs, both sides' legal
//! moves (the `rays` chains of [`crate::encode`](mod@crate::encode)), "black to move", and the square played,
//! one-hot over the target's squares outside the centre. The flips of a black and of a
//! white move are both built, each gated by the colour. What the target implies is put in
//! as constants, each sound for every game that reaches it:
//!
//! - a square empty in the target is empty throughout (discs are never removed);
//! - a square of placement round `r` ([`placement_rounds`]) is empty before position `r`;
//! - a disc that no line can bracket never flips: flipping `t` needs both of its
//!   neighbours on one line occupied at that moment, hence in the target; where every line
//!   through `t` has a neighbour off the board or empty in the target, `t` keeps the colour
//!   it was placed with, which is its colour in the target;
//! - each target square outside the centre is played exactly once (it stays occupied);
//! - no game passes before step [`FIRST_PASS_STEP`], so the side to move of the steps
//!   before it follows from the step, as in a part without passes.

use engine::board::CENTRE;
use engine::{Board, Color, Move, Position, Square};
use rustsat::types::Lit;

use crate::decode::DecodeError;
use crate::encode::{legal_moves, ray_flips, step};
use crate::formula::Formula;

/// A part of the question: the whole of it is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cube {
    /// The first move, fixed: the four first moves split the question.
    pub first_move: Option<Square>,
    /// Games without a pass before this step only (0: passes anywhere; the number of
    /// moves or more: no pass at all). Most real games pass only near the end, if at
    /// all, and while no pass is possible the side to move follows from the step: one
    /// side's legal moves and flips per step instead of both, so a formula without passes
    /// is half the size. Its UNSAT says nothing of games with earlier passes.
    pub no_passes_before: usize,
    /// Games with exactly one pass, just before this step's move: the side whose turn
    /// it is there by alternation has no legal move, and the other plays it. Where no
    /// game without passes reaches the target (an odd number of passes), this is the
    /// typical game of a full board: the last empty square is the other side's only. The
    /// side to move follows from the step, as without passes, so the formula is about as
    /// small. Its UNSAT says nothing of other games. Overrides `no_passes_before`.
    pub single_pass_before: Option<usize>,
}

impl Cube {
    /// No pass in the whole game.
    pub const NO_PASSES: Cube = Cube {
        first_move: None,
        no_passes_before: usize::MAX,
        single_pass_before: None,
    };

    /// Whose move step `j` is, where the cube fixes it (true: black's).
    fn mover(&self, j: usize) -> Option<bool> {
        match self.single_pass_before {
            Some(k) => Some((j % 2 == 0) != (j >= k)),
            None if j < self.no_passes_before => Some(j % 2 == 0),
            None => None,
        }
    }

    /// Whether every game this cube admits is also one of `other`'s (so `other`'s UNSAT
    /// refutes this cube).
    pub fn inside(&self, other: &Cube) -> bool {
        let first_move = other.first_move.is_none() || other.first_move == self.first_move;
        let passes = match (self.single_pass_before, other.single_pass_before) {
            (Some(k), Some(l)) => k == l,
            (None, Some(_)) => false,
            (Some(k), None) => k >= other.no_passes_before,
            (None, None) => self.no_passes_before >= other.no_passes_before,
        };
        first_move && passes
    }
}

/// The question and its CNF.
pub struct Target {
    /// The part of the question asked.
    pub cube: Cube,
    /// The clauses.
    pub formula: Formula,
    /// What a model is read by.
    pub layout: TargetLayout,
}

/// What a model is read by: the target, and which variable says "square `s` is played at
/// step `j`" (`moves[j]`, only the squares the cuts leave possible).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetLayout {
    /// The position to reach.
    pub target: Position,
    /// Per step, the squares that may be played there and their variables.
    pub moves: Vec<Vec<(Square, Lit)>>,
}

/// Discs of `occupied` that no line can ever bracket, given that the squares outside
/// `occupied` stay empty: on each of the four lines through the square, a neighbour is off
/// the board or outside `occupied`.
pub fn never_flipped(occupied: u64) -> u64 {
    let open = |sq: usize, d: usize| step(sq, d).is_none_or(|n| occupied >> n & 1 == 0);
    (0..64)
        .filter(|&sq| occupied >> sq & 1 == 1)
        .filter(|&sq| (0..8).step_by(2).all(|d| open(sq, d) || open(sq, d ^ 1)))
        .fold(0, |acc, sq| acc | 1 << sq)
}

/// The first moves a game reaching `target` can have: those of d3, c4, f5 and e6 that the
/// target occupies (black's four moves at the start).
pub fn first_moves(target: &Position) -> Vec<Square> {
    let occupied = target.board.player | target.board.opponent;
    engine::Bitboard(Board::START.moves() & occupied).collect()
}

/// The moves (passes aside) of every game that reaches `target`: one per disc beyond the
/// start's four; the question's steps.
pub fn moves_played(target: &Position) -> usize {
    (target.board.player | target.board.opponent)
        .count_ones()
        .saturating_sub(4) as usize
}

/// Whether a game without passes can end at `target` with its side to move: black moves
/// at even steps, so the last of `discs - 4` moves is black's when their number is odd.
pub fn no_passes_possible(target: &Position) -> bool {
    let moves = moves_played(target);
    if moves == 0 {
        return target.side == Color::Black;
    }
    let last_mover = if moves % 2 == 1 {
        Color::Black
    } else {
        Color::White
    };
    may_have_moved_last(target, last_mover)
}

/// Whether `mover` can have made the move that led to `target`: after a move the other
/// side is to move, or the mover again after a pass, only when the other has no move and
/// it has one (else the game is over and the other side is, by convention, to move).
fn may_have_moved_last(target: &Position, mover: Color) -> bool {
    mover != target.side || (target.board.pass().moves() == 0 && target.board.moves() != 0)
}

/// Per square of `occupied`, its placement round (`usize::MAX`: no game places it; other
/// squares: 0). A move at `s` flips the disc at `s + d` for some direction `d`, bracketed
/// by a disc at `s + k*d`, `k >= 2`: `s + d` and `s + 2d` are occupied before `s` is
/// played, and (discs stay) in the final position `occupied`. Round 0 is the centre; round
/// `r` the squares of `occupied` with such a pair among rounds below `r`, not in one
/// already. Every game places its discs in an order where each has such a pair before
/// it, so each disc it places is in some round (induction along the order), and the disc
/// of round `r` is placed at step `r` or later (a disc of its pair is of round `r - 1` or
/// more, placed at step `r - 1` or later by induction, and before it): empty in every
/// position before position `r`. This implies connection to the centre, and `r` is at
/// least the Chebyshev distance from the centre.
pub fn placement_rounds(occupied: u64) -> [usize; 64] {
    let has = |set: u64, sq: Option<Square>| sq.is_some_and(|sq| set & sq.bit() != 0);
    let mut rounds = [0; 64];
    for sq in engine::Bitboard(occupied & !CENTRE) {
        rounds[sq.index()] = usize::MAX;
    }
    let mut placed = CENTRE & occupied;
    for round in 1.. {
        let grown = engine::Bitboard(occupied & !placed)
            .filter(|&sq| {
                (0..8).any(|d| {
                    let next = sq.step(d);
                    has(placed, next) && has(placed, next.and_then(|n| n.step(d)))
                })
            })
            .fold(placed, |acc, sq| {
                rounds[sq.index()] = round;
                acc | sq.bit()
            });
        if grown == placed {
            break;
        }
        placed = grown;
    }
    rounds
}

/// The first step before which a game can pass: no position after fewer than 8 moves has
/// a side to move without a legal move while the other has one (every game of up to 8
/// moves searched: the test below), and one after 8 moves has.
pub const FIRST_PASS_STEP: usize = 8;

/// Whether a game's first pass can fall just before step `step`: from
/// [`FIRST_PASS_STEP`] on, but never before step 9 (no position after 9 moves without a
/// pass leaves its side to move without a move while the other has one: the test below
/// searches them all).
pub fn first_pass_possible(step: usize) -> bool {
    step >= FIRST_PASS_STEP && step != FIRST_PASS_STEP + 1
}

/// What the target and the cuts fix of the game's positions.
struct Known {
    /// The target's discs by colour.
    black: u64,
    white: u64,
    /// The target's occupied squares.
    occupied: u64,
    /// Moves played to the target.
    steps: usize,
    /// The first step each square can hold a disc ([`placement_rounds`]).
    rounds: [usize; 64],
    /// Discs that never flipped ([`never_flipped`]).
    fixed: u64,
}

impl Known {
    /// What position `j` must hold on `sq` for colour `black` (true: black discs), if the
    /// target and the cuts decide it.
    fn forced(&self, j: usize, sq: Square, black: bool) -> Option<bool> {
        let bit = sq.bit();
        let (mine, theirs) = if black {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        };
        if j == 0 {
            let start = if black {
                Board::START.player
            } else {
                Board::START.opponent
            };
            return Some(start & bit != 0);
        }
        if j == self.steps {
            return Some(mine & bit != 0);
        }
        if self.occupied & bit == 0 || self.rounds[sq.index()] > j || self.fixed & theirs & bit != 0
        {
            return Some(false);
        }
        None
    }
}

/// Whose move step `j` is: the cube's side where it fixes it (with, at its single pass,
/// the clauses that the passer has no move), else the other side unless it has no move.
fn side_to_move(
    f: &mut Formula,
    (j, mover, pass_here): (usize, Option<bool>, bool),
    legal: (&[Lit], &[Lit]),
    previous: Lit,
) -> Lit {
    let (legal_black, legal_white) = legal;
    if let Some(black_moves) = mover {
        if pass_here {
            let passer = if black_moves {
                legal_white
            } else {
                legal_black
            };
            for &l in passer {
                f.clause_folded(&[!l]);
            }
        }
        return f.constant(black_moves);
    }
    if j == 0 {
        return previous;
    }
    // The side to move: the other side, unless it has no move (a pass; the side that just
    // moved must then have one, which the move asks).
    let has_black = f.or(legal_black);
    let has_white = f.or(legal_white);
    let black_to_move = f.lit();
    f.clause(&[!previous, has_white, black_to_move]);
    f.clause(&[!previous, !has_white, !black_to_move]);
    f.clause(&[previous, !has_black, black_to_move]);
    f.clause(&[previous, has_black, !black_to_move]);
    black_to_move
}

/// Step `j`'s move: exactly one of the squares that can be played then, legal for the
/// side to move; each square's literal also goes to its `column` (every square is played
/// once). The candidates, and the move as each colour's squares.
fn step_move(
    f: &mut Formula,
    known: &Known,
    (j, first_move): (usize, Option<Square>),
    black_to_move: Lit,
    legal: (&[Lit], &[Lit]),
    column: &mut [Vec<Lit>],
) -> (Vec<(Square, Lit)>, Vec<Lit>, Vec<Lit>) {
    let candidates: Vec<(Square, Lit)> = Square::all()
        .filter(|&sq| {
            known.occupied & !CENTRE & sq.bit() != 0
                && known.rounds[sq.index()] <= j + 1
                && (j > 0 || first_move.is_none_or(|m| m == sq))
        })
        .map(|sq| (sq, f.lit()))
        .collect();
    let lits: Vec<Lit> = candidates.iter().map(|&(_, l)| l).collect();
    f.clause(&lits);
    f.at_most_one(&lits);
    let mut move_black = vec![f.f; 64];
    let mut move_white = vec![f.f; 64];
    for &(sq, l) in &candidates {
        let s = sq.index();
        f.clause(&[!l, !black_to_move, legal.0[s]]);
        f.clause(&[!l, black_to_move, legal.1[s]]);
        move_black[s] = f.and(&[l, black_to_move]);
        move_white[s] = f.and(&[l, !black_to_move]);
        column[s].push(l);
    }
    (candidates, move_black, move_white)
}

/// The discs of position `j + 1` from those of `j`, the move and its flips; where the
/// target fixes a square, the constant (and a clause that the computed value equals it).
fn next_discs(
    f: &mut Formula,
    known: &Known,
    j: usize,
    (black, white): (&[Lit], &[Lit]),
    (move_black, move_white): (&[Lit], &[Lit]),
    (flips_black, flips_white): (&[Lit], &[Lit]),
) -> (Vec<Lit>, Vec<Lit>) {
    let mut next_black = Vec::with_capacity(64);
    let mut next_white = Vec::with_capacity(64);
    for sq in Square::all() {
        let t = sq.index();
        let kept_black = f.and(&[black[t], !flips_white[t]]);
        let kept_white = f.and(&[white[t], !flips_black[t]]);
        let b = f.or(&[kept_black, move_black[t], flips_black[t]]);
        let w = f.or(&[kept_white, move_white[t], flips_white[t]]);
        for (value, computed, is_black) in [(&mut next_black, b, true), (&mut next_white, w, false)]
        {
            match known.forced(j + 1, sq, is_black).map(|v| f.constant(v)) {
                Some(c) => {
                    f.clause(&[if c == f.f { !computed } else { computed }]);
                    value.push(c);
                }
                None => value.push(computed),
            }
        }
    }
    (next_black, next_white)
}

/// Builds the question for `target` (with its side to move), or the part of it `cube`
/// asks.
pub fn encode_target(target: &Position, cube: Cube) -> Target {
    let first_move = cube.first_move;
    // Whose move each step is, where the cube or the rules fix it.
    let turns = Cube {
        no_passes_before: cube.no_passes_before.max(FIRST_PASS_STEP),
        ..cube
    };
    let (black_t, white_t) = target.discs();
    let occupied = black_t | white_t;
    let known = Known {
        black: black_t,
        white: white_t,
        occupied,
        steps: moves_played(target),
        rounds: placement_rounds(occupied),
        fixed: never_flipped(occupied),
    };
    let steps = known.steps;
    let mut f = Formula::new();
    if occupied & CENTRE != CENTRE {
        f.clause(&[f.f]);
    }
    let mut black: Vec<Lit> = Square::all()
        .map(|sq| f.constant(known.forced(0, sq, true).expect("the start is known")))
        .collect();
    let mut white: Vec<Lit> = Square::all()
        .map(|sq| f.constant(known.forced(0, sq, false).expect("the start is known")))
        .collect();
    let mut black_to_move = f.constant(true);
    let mut moves = Vec::with_capacity(steps);
    let mut column: Vec<Vec<Lit>> = vec![Vec::new(); 64];
    if steps == 0 && (Position::START != *target) {
        f.clause(&[f.f]);
    }
    for j in 0..steps {
        // Where the cube fixes whose move it is, the other side's moves are not built
        // (all false), and its flips fold away with its gated moves; only at the single
        // pass are the passer's moves built, to say it has none.
        let mover = turns.mover(j);
        let pass_here = cube.single_pass_before == Some(j);
        let moves_of = |f: &mut Formula, black_moves: bool, player: &[Lit], opponent: &[Lit]| {
            if mover.is_some_and(|m| m != black_moves) && !pass_here {
                (vec![f.f; 64], vec![[f.f; 8]; 64])
            } else {
                legal_moves(f, player, opponent)
            }
        };
        let (legal_black, a_black) = moves_of(&mut f, true, &black, &white);
        let (legal_white, a_white) = moves_of(&mut f, false, &white, &black);
        let legal = (&legal_black[..], &legal_white[..]);
        black_to_move = side_to_move(&mut f, (j, mover, pass_here), legal, black_to_move);
        let (candidates, move_black, move_white) = step_move(
            &mut f,
            &known,
            (j, first_move),
            black_to_move,
            legal,
            &mut column,
        );
        let flips_black = ray_flips(&mut f, &white, &move_black, &a_black);
        let flips_white = ray_flips(&mut f, &black, &move_white, &a_white);
        (black, white) = next_discs(
            &mut f,
            &known,
            j,
            (&black, &white),
            (&move_black, &move_white),
            (&flips_black, &flips_white),
        );
        moves.push(candidates);
    }
    // Each square outside the centre is played exactly once.
    for sq in Square::all().filter(|sq| occupied & !CENTRE & sq.bit() != 0) {
        let lits = &column[sq.index()];
        f.clause(lits);
        f.at_most_one(lits);
    }
    if steps > 0 {
        // The last move was the other side's unless the side to move may have made it.
        if !may_have_moved_last(target, target.side) {
            let last_mover_black = target.side == Color::White;
            f.clause(&[if last_mover_black {
                black_to_move
            } else {
                !black_to_move
            }]);
        }
    } else if target.side != Color::Black {
        f.clause(&[f.f]);
    }
    Target {
        cube,
        formula: f,
        layout: TargetLayout {
            target: *target,
            moves,
        },
    }
}

/// The game a model of `target`'s formula describes, replayed by the core (forced passes
/// inserted) and checked to end at exactly the target with its side to move.
pub fn decode_target(layout: &TargetLayout, model: &[bool]) -> Result<Vec<Move>, DecodeError> {
    let value = |l: Lit| model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
    let mut position = Position::START;
    let mut game = Vec::new();
    for (j, candidates) in layout.moves.iter().enumerate() {
        let chosen: Vec<Square> = candidates
            .iter()
            .filter(|&&(_, l)| value(l))
            .map(|&(sq, _)| sq)
            .collect();
        let [sq] = chosen[..] else {
            return Err(DecodeError::NotOneMove {
                ply: j,
                count: chosen.len(),
            });
        };
        if position.board.must_pass() {
            position = position.play(Move::Pass).expect("a forced pass is legal");
            game.push(Move::Pass);
        }
        let mv = Move::Play(sq);
        position = position.play(mv).map_err(|_| DecodeError::Illegal {
            ply: game.len(),
            mv,
        })?;
        game.push(mv);
    }
    if position != layout.target && position.board.must_pass() {
        position = position.play(Move::Pass).expect("a forced pass is legal");
        game.push(Move::Pass);
    }
    if position != layout.target {
        return Err(DecodeError::WrongPosition);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;
    use proptest::prelude::*;
    use rand::{rngs::SmallRng, SeedableRng};

    #[test]
    fn first_passes_fall_where_the_rules_let_them() {
        // Every game of up to FIRST_PASS_STEP + 2 moves: the positions whose side to move
        // has no legal move while the other has one, by the number of moves played.
        fn walk(board: Board, played: usize, passes: &mut [u64]) {
            let moves = board.moves();
            if moves == 0 {
                passes[played] += u64::from(board.pass().moves() != 0);
            } else if played + 1 < passes.len() {
                for sq in engine::Bitboard(moves) {
                    walk(board.play(sq).expect("a legal move"), played + 1, passes);
                }
            }
        }
        let mut passes = [0; FIRST_PASS_STEP + 3];
        walk(Board::START, 0, &mut passes);
        assert_eq!(passes.iter().position(|&n| n > 0), Some(FIRST_PASS_STEP));
        for (step, &n) in passes.iter().enumerate() {
            assert_eq!(first_pass_possible(step), n > 0, "step {step}");
        }
    }

    #[test]
    fn placement_rounds_and_unbracketable_discs() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let full = placement_rounds(!0);
        assert_eq!(full[sq("d4").index()], 0);
        assert_eq!(full[sq("c6").index()], 1);
        assert_eq!(full[sq("a1").index()], 3);
        assert_eq!(full[sq("h5").index()], 3);
        // c5, b6, a7 in a line from the centre; a8 has a7 beside it but nothing beyond.
        let line = CENTRE
            | ["c5", "b6", "a7", "a8"]
                .iter()
                .fold(0, |a, s| a | sq(s).bit());
        let rounds = placement_rounds(line);
        let of = |s: &str| rounds[sq(s).index()];
        assert_eq!(
            [of("c5"), of("b6"), of("a7"), of("a8")],
            [1, 2, 3, usize::MAX]
        );
        assert_eq!(of("h8"), 0);
        let f5 = Position::START.play(Move::Play(Square::F5)).unwrap();
        assert!(no_passes_possible(&Position::START) && no_passes_possible(&f5));
        let other_side = |p: Position| Position {
            board: p.board.pass(),
            side: p.side.other(),
        };
        assert!(!no_passes_possible(&other_side(Position::START)));
        assert!(!no_passes_possible(&other_side(f5)));
        let full = never_flipped(!0);
        assert_eq!(
            full, 0x8100_0000_0000_0081,
            "only the corners on a full board"
        );
        // The start: every centre disc has a neighbour-free side on each line.
        assert_eq!(never_flipped(CENTRE), CENTRE);
        // With d3 played, d4 lies between d3 and d5 on its file: it can flip (d5 cannot).
        let with_d3 = never_flipped(CENTRE | sq("d3").bit());
        assert_eq!(with_d3 & CENTRE, CENTRE & !sq("d4").bit());
    }

    /// Solves `position`'s question (or the part `cube`) with varisat: the replayed
    /// witness, or `None` (UNSAT).
    fn solve_part(position: &Position, cube: Cube) -> Option<Vec<Move>> {
        let question = encode_target(position, cube);
        let model = crate::solve::varisat(&question.formula)?;
        let moves = decode_target(&question.layout, &model).expect("a model decodes");
        let mut replayed = Position::START;
        for mv in &moves {
            replayed = replayed.play(*mv).unwrap();
        }
        assert_eq!(replayed, *position);
        Some(moves)
    }

    fn solve(position: &Position, first_move: Option<Square>) -> Option<Vec<Move>> {
        let cube = Cube {
            first_move,
            ..Cube::default()
        };
        solve_part(position, cube)
    }

    #[test]
    fn which_parts_lie_inside_which() {
        let late = |n| Cube {
            no_passes_before: n,
            ..Cube::default()
        };
        let single = |k| Cube {
            single_pass_before: Some(k),
            ..Cube::default()
        };
        let whole = Cube::default();
        for part in [Cube::NO_PASSES, late(30), single(40), single(20)] {
            assert!(part.inside(&whole) && part.inside(&part));
        }
        assert!(Cube::NO_PASSES.inside(&late(30)) && !late(30).inside(&Cube::NO_PASSES));
        assert!(single(40).inside(&late(30)) && !single(20).inside(&late(30)));
        assert!(!single(40).inside(&single(20)) && !single(40).inside(&Cube::NO_PASSES));
        assert!(!Cube::NO_PASSES.inside(&single(40)) && !whole.inside(&late(30)));
        let d3 = Cube {
            first_move: Some("d3".parse().unwrap()),
            ..Cube::default()
        };
        assert!(d3.inside(&whole) && !whole.inside(&d3));
    }

    /// Around the passes of random games: the position where a side must pass, the one
    /// after the pass, and the next: each SAT, and the witness passes too. A first move
    /// fixed where the target has no disc: UNSAT.
    #[test]
    fn passes_anywhere_are_covered() {
        let mut around_passes = 0;
        for seed in 0..20_000u64 {
            let game = Game::random(&mut SmallRng::seed_from_u64(seed), 60);
            let Some(i) = game.moves.iter().position(|&m| m == Move::Pass) else {
                continue;
            };
            if (game.positions[i].board.player | game.positions[i].board.opponent).count_ones() > 24
            {
                continue;
            }
            for p in &game.positions[i..(i + 3).min(game.positions.len())] {
                let witness = solve(p, None).unwrap_or_else(|| panic!("seed {seed}"));
                assert!(witness.contains(&Move::Pass) || p == &game.positions[i]);
            }
            // One move after the pass: found by the part with a single pass before the
            // last move, and not by the part without passes; before the pass, the
            // other way round.
            let last_pass = |steps: usize| Cube {
                single_pass_before: Some(steps - 1),
                ..Cube::default()
            };
            if let (Some(after), Some(Move::Play(_))) =
                (game.positions.get(i + 2), game.moves.get(i + 1))
            {
                let witness = solve_part(after, last_pass(moves_played(after)));
                assert_eq!(witness.map(|w| w[i]), Some(Move::Pass), "seed {seed}");
                assert_eq!(solve_part(after, Cube::NO_PASSES), None, "seed {seed}");
            }
            let before = &game.positions[i];
            assert!(solve_part(before, Cube::NO_PASSES).is_some());
            assert_eq!(solve_part(before, last_pass(moves_played(before))), None);
            around_passes += 1;
            if around_passes == 3 {
                break;
            }
        }
        assert_eq!(around_passes, 3, "games with early passes");
        // A fixed first move the target does not allow: UNSAT.
        let after_f5 = Position::START.play(Move::Play(Square::F5)).unwrap();
        assert!(solve(&after_f5, Some(Square::F5)).is_some());
        assert_eq!(solve(&after_f5, Some("d3".parse().unwrap())), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Positions of games (with passes among them) are SAT, each model decodes to a
        /// game the core replays to exactly the position.
        #[test]
        fn positions_of_games_are_found(
            choices in prop::collection::vec(0usize..32, 60),
            ply in 6usize..20,
        ) {
            let game = Game::from_choices(&choices);
            let Some(&position) = game.positions.get(ply) else {
                return Ok(());
            };
            // Without passes so far, the parts of the question without passes (at all, or
            // before step 4) hold it too.
            if !game.moves[..ply].contains(&Move::Pass) {
                prop_assert!(no_passes_possible(&position));
                for no_passes_before in [usize::MAX, 4] {
                    let cube = Cube {
                        no_passes_before,
                        ..Cube::default()
                    };
                    let question = encode_target(&position, cube);
                    let model = crate::solve::varisat(&question.formula).expect("reachable");
                    prop_assert!(decode_target(&question.layout, &model).is_ok());
                }
            }
            let question = encode_target(&position, Cube::default());
            let model = crate::solve::varisat(&question.formula).expect("reachable");
            let moves = decode_target(&question.layout, &model).unwrap();
            let mut replayed = Position::START;
            for mv in &moves {
                replayed = replayed.play(*mv).unwrap();
            }
            prop_assert_eq!(replayed, position);
        }
    }
}
