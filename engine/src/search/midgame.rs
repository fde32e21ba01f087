//! Depth-limited search with the evaluation: principal-variation search with a
//! transposition table of its own kind of entries (depth-tagged bounds in hundredths of a
//! disc, in the `tt` module's table), iterative deepening, and the exact solver
//! taking over once the search reaches the end of the game.
//!
//! Scores are in hundredths of a disc for the side to move; exact ones are multiples of
//! 100.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::clock;
use crate::eval::Evaluation;
use crate::memory::share_mb;
use crate::position::Move;
use crate::search::tt::{Entry, TranspositionTable};
use crate::search::{probcut, Solution, Solver};
use crate::square::Square;

const INFINITY: i32 = 30_000;

/// The default ProbCut level: 1.5 sigma, as Logistello played.
pub const MIDGAME_SELECTIVITY: u8 = 1;
const NO_MOVE: u8 = 64;

/// What the midgame's table keeps of a searched board: bounds in hundredths of a disc
/// from a search `depth` plies deep, and the best move. Packed: lower and upper (16 bits
/// each, two's complement), best move (8), depth (8), generation (8).
#[derive(Clone, Copy)]
struct Estimate {
    lower: i32,
    upper: i32,
    best: u8,
    depth: u32,
}

impl Entry for Estimate {
    type Found = Estimate;

    fn pack(&self, generation: u8) -> u64 {
        let bound = |b: i32| b.clamp(-INFINITY, INFINITY) as i16 as u16 as u64;
        bound(self.lower)
            | bound(self.upper) << 16
            | (self.best as u64) << 32
            | (self.depth.min(255) as u64) << 40
            | (generation as u64) << 48
            | 1 << 63
    }

    fn unpack(word: u64) -> Estimate {
        Estimate {
            lower: word as u16 as i16 as i32,
            upper: (word >> 16) as u16 as i16 as i32,
            best: (word >> 32) as u8,
            depth: (word >> 40) as u8 as u32,
        }
    }

    /// The current search's entries first, then the deeper search.
    fn priority(word: u64, generation: u8) -> u32 {
        let current = ((word >> 48) as u8 == generation) as u32;
        current << 8 | (word >> 40 & 0xff) as u32
    }
}

/// The outcome of a search of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Depth of the last completed iteration (plies; the exact solve counts as the
    /// remaining empties).
    pub depth: u32,
    /// Hundredths of a disc for the side to move.
    pub score: i32,
    /// Whether the score is the exact final score (the search reached the end).
    pub exact: bool,
    /// The move it chose (`None` at the end of the game).
    pub best_move: Option<Move>,
    /// The principal variation from the position.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A midgame searcher: evaluation, table, and an exact solver for the end of the game.
pub struct Midgame {
    eval: Arc<dyn Evaluation>,
    table: TranspositionTable<Estimate>,
    solver: Solver,
    /// Positions with at most this many empties are solved exactly when the depth
    /// reaches their end.
    pub exact_empties: u32,
    /// ProbCut level (index into `probcut::CONFIDENCE`) for null-window nodes from
    /// `probcut::MIDGAME_MIN_DEPTH` plies, or `None` for a full-width search.
    pub selectivity: Option<u8>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Midgame {
    /// A searcher with `eval` and `hash_mb` MiB of tables (half its own, half the exact
    /// solver's: [`crate::memory::share_mb`]).
    pub fn new(eval: Arc<dyn Evaluation>, hash_mb: usize) -> Midgame {
        Midgame {
            solver: Solver::new(share_mb(hash_mb, 1, 2)).with_eval(eval.clone()),
            table: TranspositionTable::new(share_mb(hash_mb, 1, 2)),
            eval,
            exact_empties: 20,
            selectivity: Some(MIDGAME_SELECTIVITY),
            nodes: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// The score of `board` searched `depth` plies deep (exact when the search reaches
    /// the end of the game within `exact_empties`), in the window (`alpha`, `beta`).
    pub fn search(
        &mut self,
        board: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.stopped = false;
        self.table.new_generation();
        self.pvs(board, depth, alpha, beta, stop)
    }

    /// Iterative deepening up to `max_depth` plies, stopping early at `deadline` or when
    /// `stop` is raised: the result of the deepest completed iteration.
    pub fn iterate(
        &mut self,
        board: &Board,
        max_depth: u32,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Analysis {
        self.nodes = 0;
        self.deadline = deadline;
        self.stopped = false;
        self.table.new_generation();
        let empties = board.empty_count();
        let mut result = self.shallow_result(board);
        for depth in 1..=max_depth.max(1) {
            if depth >= empties && empties <= self.exact_empties {
                // The end is in reach: the exact solver, with its checked principal variation
                // (abandoned at the deadline: the last iteration's move is played then).
                if let Some(solution) = self.solve_until(board, deadline, stop) {
                    self.nodes += solution.nodes;
                    result = Analysis {
                        depth: empties,
                        score: solution.score * 100,
                        exact: true,
                        best_move: solution.best_move,
                        pv: solution.pv,
                        nodes: self.nodes,
                    };
                }
                break;
            }
            let (score, best_move) = self.root(board, depth, result.best_move, stop);
            if self.stopped {
                break;
            }
            let mut pv: Vec<Move> = best_move.into_iter().collect();
            if let Some(mv) = best_move {
                let child = match mv {
                    Move::Play(sq) => board.play(sq).expect("a legal move"),
                    Move::Pass => board.pass(),
                };
                pv.extend(self.principal_variation(&child, depth - 1));
            }
            result = Analysis {
                depth,
                score,
                exact: false,
                best_move,
                pv,
                nodes: self.nodes,
            };
        }
        self.deadline = None;
        result
    }

    /// The exact solution of `board`, or `None` if `stop` is raised or `deadline` passes
    /// first.
    fn solve_until(
        &self,
        board: &Board,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<Solution> {
        clock::until(deadline, stop, |flag| {
            self.solver.solve(board, -65, 65, flag)
        })
        .0
    }

    /// One iteration at the root: the score and the move reaching it (`first` searched
    /// first, usually the previous iteration's best).
    fn root(
        &mut self,
        board: &Board,
        depth: u32,
        first: Option<Move>,
        stop: &AtomicBool,
    ) -> (i32, Option<Move>) {
        if board.is_game_over() {
            return (board.final_score() * 100, None);
        }
        if board.moves() == 0 {
            let score = -self.pvs(&board.pass(), depth, -INFINITY, INFINITY, stop);
            return (score, Some(Move::Pass));
        }
        let mut moves: Vec<(Square, Board)> = board
            .legal_moves()
            .map(|sq| (sq, board.play(sq).expect("a legal move")))
            .collect();
        moves
            .sort_by_key(|(sq, child)| (first != Some(Move::Play(*sq)), self.eval.evaluate(child)));
        let mut alpha = -INFINITY;
        let mut best = None;
        for (i, (sq, child)) in moves.iter().enumerate() {
            let score = if i == 0 {
                -self.pvs(child, depth - 1, -INFINITY, -alpha, stop)
            } else {
                let probe = -self.pvs(child, depth - 1, -alpha - 1, -alpha, stop);
                if probe > alpha {
                    -self.pvs(child, depth - 1, -INFINITY, -alpha, stop)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            if i == 0 || score > alpha {
                alpha = score;
                best = Some(Move::Play(*sq));
            }
        }
        (alpha, best)
    }

    /// The score of every legal move, searched `depth` plies deep (the move included),
    /// best first.
    pub fn analyze(&mut self, board: &Board, depth: u32, stop: &AtomicBool) -> Vec<(Move, i32)> {
        self.stopped = false;
        self.table.new_generation();
        let mut scores: Vec<(Move, i32)> = if board.moves() == 0 {
            if board.is_game_over() {
                return Vec::new();
            }
            vec![(
                Move::Pass,
                -self.pvs(
                    &board.pass(),
                    depth.saturating_sub(1),
                    -INFINITY,
                    INFINITY,
                    stop,
                ),
            )]
        } else {
            board
                .legal_moves()
                .map(|sq| {
                    let child = board.play(sq).expect("a legal move");
                    let d = depth.saturating_sub(1);
                    (
                        Move::Play(sq),
                        -self.pvs(&child, d, -INFINITY, INFINITY, stop),
                    )
                })
                .collect()
        };
        scores.sort_by_key(|&(_, score)| -score);
        scores
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Before the first iteration: the move the evaluation likes best.
    fn shallow_result(&self, board: &Board) -> Analysis {
        let best = Bitboard(board.moves())
            .into_iter()
            .max_by_key(|&sq| -self.eval.evaluate(&board.play(sq).expect("legal")));
        Analysis {
            depth: 0,
            score: self.eval.evaluate(board),
            exact: false,
            best_move: best
                .map(Move::Play)
                .or((!board.is_game_over()).then_some(Move::Pass)),
            pv: Vec::new(),
            nodes: 0,
        }
    }

    fn out_of_time(&mut self, stop: &AtomicBool) -> bool {
        if !self.stopped && self.nodes & 1023 == 0 {
            self.stopped = stop.load(Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.stopped
    }

    /// Principal-variation search of `board` to `depth` in (`alpha`, `beta`).
    ///
    /// About a hundred lines, as the endgame's `nws_table`: the table probe, ProbCut, the
    /// move ordering, the scout and re-search of each move and the table store share the
    /// node's bounds and children; it is the midgame's hot path, kept whole as Edax's
    /// `PVS_midgame` is.
    fn pvs(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time(stop) {
            return 0;
        }
        let empties = board.empty_count();
        if depth >= empties && empties <= self.exact_empties {
            // Fail-soft disc bounds in the window rounded outwards stay valid bounds.
            let (a, b) = (alpha.div_euclid(100), (beta + 99).div_euclid(100));
            return match self.solver.solve(board, a.max(-65), b.min(65), stop) {
                Some(s) => {
                    self.nodes += s.nodes;
                    s.score * 100
                }
                None => {
                    self.stopped = true;
                    0
                }
            };
        }
        if depth == 0 {
            return self.eval.evaluate(board);
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            return if passed.moves() == 0 {
                board.final_score() * 100
            } else {
                -self.pvs(&passed, depth, -beta, -alpha, stop)
            };
        }
        let mut hash_move = NO_MOVE;
        if let Some(entry) = self.table.probe(board) {
            hash_move = entry.best;
            if entry.depth >= depth {
                let (lower, upper) = (entry.lower, entry.upper);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if let Some(level) = self.selectivity {
            if beta == alpha + 1 && depth >= probcut::MIDGAME_MIN_DEPTH {
                let static_value = self.eval.evaluate(board);
                let cut = probcut::midgame_cut(static_value, alpha, depth, level, |d, a| {
                    self.pvs(board, d, a, a + 1, stop)
                });
                if let Some(bound) = cut {
                    return bound;
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        let mut list: ArrayVec<(Square, Board, i32), 64> = Bitboard(moves)
            .into_iter()
            .map(|sq| {
                let child = board.play_flips(sq, board.flips(sq));
                let key = if sq.index() as u8 == hash_move {
                    INFINITY
                } else if depth >= 3 {
                    -self.eval.evaluate(&child)
                } else {
                    -(child.moves().count_ones() as i32)
                };
                (sq, child, key)
            })
            .collect();
        list.sort_unstable_by_key(|&(_, _, key)| -key);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (i, (sq, child, _)) in list.iter().enumerate() {
            let score = if i == 0 {
                -self.pvs(child, depth - 1, -beta, -alpha, stop)
            } else {
                let probe = -self.pvs(child, depth - 1, -alpha - 1, -alpha, stop);
                if probe > alpha && probe < beta {
                    -self.pvs(child, depth - 1, -beta, -alpha, stop)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq.index() as u8;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        let lower = if best > original_alpha {
            best
        } else {
            -INFINITY
        };
        let upper = if best < beta { best } else { INFINITY };
        let estimate = Estimate {
            lower,
            upper,
            best: best_move,
            depth,
        };
        self.table.store(board, estimate);
        best
    }

    /// The table's best moves from `board`, at most `depth` of them.
    fn principal_variation(&self, board: &Board, depth: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut board = *board;
        while pv.len() < depth as usize && !board.is_game_over() {
            if board.moves() == 0 {
                pv.push(Move::Pass);
                board = board.pass();
                continue;
            }
            let Some(sq) = self
                .table
                .probe(&board)
                .and_then(|e| Square::new(e.best as u32))
                .filter(|&sq| board.moves() & sq.bit() != 0)
            else {
                break;
            };
            pv.push(Move::Play(sq));
            board = board.play(sq).expect("a legal move");
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PatternEval;
    use crate::Game;
    use rand::{rngs::SmallRng, SeedableRng};

    /// Full-width negamax over the evaluation: no pruning, no table.
    fn negamax(eval: &dyn Evaluation, board: &Board, depth: u32) -> i32 {
        if board.is_game_over() {
            return board.final_score() * 100;
        }
        if depth == 0 {
            return eval.evaluate(board);
        }
        if board.moves() == 0 {
            return -negamax(eval, &board.pass(), depth);
        }
        board
            .legal_moves()
            .map(|sq| -negamax(eval, &board.play(sq).unwrap(), depth - 1))
            .max()
            .unwrap()
    }

    #[test]
    fn estimates_pack_and_unpack_exactly() {
        for (lower, upper, best, depth) in [
            (-INFINITY, INFINITY, NO_MOVE, 0),
            (-1234, -17, 0, 1),
            (-1, 0, 63, 60),
            (2900, 6400, 27, 255),
        ] {
            let estimate = Estimate {
                lower,
                upper,
                best,
                depth,
            };
            let word = estimate.pack(200);
            let back = Estimate::unpack(word);
            assert_eq!(
                (back.lower, back.upper, back.best, back.depth),
                (lower, upper, best, depth)
            );
            assert_ne!(word, 0, "0 is an empty slot");
            assert_eq!(Estimate::priority(word, 200), 1 << 8 | depth);
            assert_eq!(Estimate::priority(word, 199), depth);
        }
        // Bounds beyond the search's range are kept at its ends.
        let wide = Estimate {
            lower: -99_999,
            upper: 99_999,
            best: NO_MOVE,
            depth: 3,
        };
        let back = Estimate::unpack(wide.pack(0));
        assert_eq!((back.lower, back.upper), (-INFINITY, INFINITY));
    }

    #[test]
    fn search_equals_plain_negamax_and_exact_scores() {
        let eval = PatternEval::embedded();
        let stop = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..12 {
            let game = Game::random(&mut rng, 60);
            for position in game
                .positions
                .iter()
                .filter(|p| matches!(p.board.empty_count(), 30 | 44))
            {
                let board = position.board;
                let mut midgame = Midgame::new(eval.clone(), 8);
                midgame.selectivity = None;
                let expected = negamax(&*eval, &board, 5);
                assert_eq!(
                    midgame.search(&board, 5, -INFINITY, INFINITY, &stop),
                    expected
                );
            }
            if let Some(position) = game.positions.iter().find(|p| p.board.empty_count() == 10) {
                let mut midgame = Midgame::new(eval.clone(), 8);
                let analysis = midgame.iterate(&position.board, 60, None, &stop);
                let exact = crate::reference::minimax(&position.board, -65, 65);
                assert!(analysis.exact);
                assert_eq!(analysis.score, exact * 100);
            }
        }
    }

    /// ProbCut prunes (fewer nodes than full width at depth 8) without changing much (the
    /// same best move on most positions, scores within a few discs).
    #[test]
    fn probcut_searches_less_and_agrees_mostly() {
        let eval = PatternEval::embedded();
        let stop = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut selective_nodes, mut full_nodes, mut same_move) = (0, 0, 0);
        let positions = 12;
        for _ in 0..positions {
            let board = Game::random(&mut rng, 24).last().board;
            let mut full = Midgame::new(eval.clone(), 8);
            full.selectivity = None;
            let mut selective = Midgame::new(eval.clone(), 8);
            let a = full.iterate(&board, 8, None, &stop);
            let b = selective.iterate(&board, 8, None, &stop);
            full_nodes += a.nodes;
            selective_nodes += b.nodes;
            same_move += (a.best_move == b.best_move) as u32;
            assert!(
                (a.score - b.score).abs() <= 1000,
                "{board:?}: {} {}",
                a.score,
                b.score
            );
        }
        assert!(
            selective_nodes * 2 < full_nodes,
            "{selective_nodes} {full_nodes}"
        );
        assert!(same_move * 2 > positions, "{same_move} of {positions}");
    }

    #[test]
    fn analyze_scores_every_move_and_iterate_stops_at_the_deadline() {
        let eval = PatternEval::embedded();
        let stop = AtomicBool::new(false);
        let board = Board::START.play(Square::F5).unwrap();
        let mut midgame = Midgame::new(eval, 8);
        let scores = midgame.analyze(&board, 4, &stop);
        assert_eq!(scores.len(), 3);
        assert!(scores.windows(2).all(|w| w[0].1 >= w[1].1));
        let analysis = midgame.iterate(&board, 60, Some(Instant::now()), &stop);
        assert!(analysis.depth < 60 && analysis.best_move.is_some());
    }
}
