//! The root of an exact solve: score, best move and a principal variation that is checked
//! move by move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::board::Board;
use crate::cpu::Isa;
use crate::eval::{Evaluation, PatternEval};
use crate::position::Move;
use crate::search::endgame::{nws_with, pvs_with, Search, Stop};
use crate::search::ordering::MoveList;
use crate::search::tt::{Bounds, TranspositionTable, NO_MOVE};
use crate::square::Square;
use crate::stability;

/// Empties from which the exact search is preceded by selective ones: 18 was faster than
/// 20 and 23, 16 the same (results/ffo.md, "Figures once in code comments").
pub const SELECTIVE_MIN: u32 = 18;

/// The selectivity levels searched before the exact one. One pass at 2 sigma measured
/// best, far faster than none; all five levels in turn, or 1.1 sigma alone, cost more
/// than they saved (results/ffo.md, "Figures once in code comments").
const SELECTIVE_LEVELS: &[u8] = &[2];

/// MiB of the small table of the nodes near the leaves (`Search::shallow_tt`), on top of
/// the main table: small enough to stay in the caches.
pub const SHALLOW_TT_MB: usize = 2;

/// The result of solving one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact score for the side to move; with a narrowed window, the fail-soft bound.
    pub score: i32,
    /// A move reaching the score (`Pass` when the side to move must pass, `None` at the
    /// end of the game).
    pub best_move: Option<Move>,
    /// Moves from the position on, each checked to keep the score.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// An exact endgame solver with its transposition table and the evaluation that orders
/// its moves.
pub struct Solver {
    tt: TranspositionTable,
    shallow_tt: TranspositionTable,
    eval: Arc<dyn Evaluation>,
    isa: Isa,
    selective_min: u32,
}

impl Solver {
    /// A solver whose moves are ordered by the trained evaluation built into the binary,
    /// with a main table of at most `hash_mb` MiB (and the small one of SHALLOW_TT_MB).
    pub fn new(hash_mb: usize) -> Solver {
        stability::build_tables();
        Solver {
            tt: TranspositionTable::new(hash_mb),
            shallow_tt: TranspositionTable::new(SHALLOW_TT_MB),
            eval: PatternEval::embedded(),
            isa: Isa::detect(),
            selective_min: SELECTIVE_MIN,
        }
    }

    /// Orders moves with `eval` instead of the trained evaluation.
    pub fn with_eval(mut self, eval: Arc<dyn Evaluation>) -> Solver {
        self.eval = eval;
        self
    }

    /// Compiled for `isa` rather than the best one (for tests and benchmarks).
    pub fn with_isa(mut self, isa: Isa) -> Solver {
        self.isa = isa;
        self
    }

    /// Runs the selective search first from `empties` empties instead of SELECTIVE_MIN
    /// (tests use it to exercise it on small positions).
    pub fn selective_from(mut self, empties: u32) -> Solver {
        self.selective_min = empties;
        self
    }

    /// Solves `board` in the window (`alpha`, `beta`): the exact score when it lies strictly
    /// inside, else a bound beyond the window edge. `None` if `stop` was raised.
    ///
    /// From SELECTIVE_MIN empties (see [`Solver::selective_from`]), a selective search comes first (as in Edax's
    /// increasing selectivity): far cheaper than the exact search, it leaves its best moves
    /// in the table and gives the exact search a narrow window around its score. Only the
    /// exact search decides the answer: it never uses bounds from selective searches.
    pub fn solve(
        &self,
        board: &Board,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<Solution> {
        self.tt.new_generation();
        self.shallow_tt.new_generation();
        let (guess, nodes) = self.selective_guess(board, alpha, beta, stop)?;
        let mut search = Search::new(&self.tt, &self.shallow_tt, &*self.eval, Stop::new(stop));
        let (score, square) = self.aspiration(&mut search, board, alpha, beta, guess);
        if search.stopped() {
            return None;
        }
        let best_move = match square {
            Some(sq) => Some(Move::Play(sq)),
            None if board.is_game_over() => None,
            None => Some(Move::Pass),
        };
        // The PV's own null-window searches count too (in `search.nodes`).
        let pv = if alpha < score && score < beta {
            self.principal_variation(&mut search, board, score)?
        } else {
            best_move.into_iter().collect()
        };
        Some(Solution {
            score,
            best_move,
            pv,
            nodes: nodes + search.nodes,
        })
    }

    /// The score of the selective searches in (`alpha`, `beta`) (`None` below SELECTIVE_MIN
    /// empties, where there are none) and the nodes they searched; `None` if `stop` was
    /// raised. A guess only: the bounds it leaves in the table serve selective searches
    /// alone, its moves any search.
    pub fn selective_guess(
        &self,
        board: &Board,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<(Option<i32>, u64)> {
        let mut nodes = 0;
        let mut guess = None;
        if board.empty_count() >= self.selective_min {
            for &level in SELECTIVE_LEVELS {
                let mut search =
                    Search::new(&self.tt, &self.shallow_tt, &*self.eval, Stop::new(stop));
                search.selectivity = level;
                guess = Some(self.aspiration(&mut search, board, alpha, beta, guess).0);
                nodes += search.nodes;
                if search.stopped() {
                    return None;
                }
            }
        }
        Some((guess, nodes))
    }

    /// A principal-variation search in (`alpha`, `beta`) that first tries the window just
    /// around `guess` (scores are even: (guess - 1, guess + 1) holds only `guess`) and
    /// widens it on the side where it fails. Same result as searching (`alpha`, `beta`).
    fn aspiration(
        &self,
        search: &mut Search,
        board: &Board,
        alpha: i32,
        beta: i32,
        guess: Option<i32>,
    ) -> (i32, Option<Square>) {
        let (mut low, mut high) = match guess.map(|g| g.clamp(alpha, beta)) {
            Some(g) => ((g - 1).max(alpha), (g + 1).min(beta)),
            None => (alpha, beta),
        };
        loop {
            let (score, square) = pvs_with(self.isa, search, board, low, high);
            if search.stopped() {
                return (score, square);
            }
            if score <= low && low > alpha {
                (low, high) = (alpha, score + 1);
            } else if score >= high && high < beta {
                (low, high) = (score - 1, beta);
            } else {
                return (score, square);
            }
        }
    }

    /// What this solver's table knows of `board` (bounds of exact or selective searches,
    /// and the best move found).
    pub fn probe(&self, board: &Board) -> Option<Bounds> {
        self.tt.probe(board)
    }

    /// Starts loading what [`Solver::probe`] will read of `board` into the cache.
    pub fn prefetch(&self, board: &Board) {
        self.tt.prefetch(board)
    }

    /// One null-window search: whether the score of `board` exceeds `alpha`. Returns a
    /// fail-soft bound (above `alpha`: the score is at least it; otherwise at most it), or
    /// `None` if `stop` was raised, and the nodes searched either way. Other tools (dfpn)
    /// decide their small positions with it, sharing this solver's table across calls.
    /// `split`: whether it may share its nodes with the other threads of the rayon pool
    /// (false where the caller is one of several threads that search at once, each with a
    /// core).
    pub fn null_window(
        &self,
        board: &Board,
        alpha: i32,
        stop: Stop<'_>,
        split: bool,
    ) -> (Option<i32>, u64) {
        let mut search = Search::new(&self.tt, &self.shallow_tt, &*self.eval, stop);
        search.split &= split;
        let bound = nws_with(self.isa, &mut search, board, alpha);
        ((!search.stopped()).then_some(bound), search.nodes)
    }

    /// The moves that keep the exact `score` from `board` to the end: each step takes the
    /// first child (table move first) whose score a null-window search proves to be
    /// `-score`.
    fn principal_variation(
        &self,
        search: &mut Search,
        board: &Board,
        mut score: i32,
    ) -> Option<Vec<Move>> {
        let mut pv = Vec::new();
        let mut board = *board;
        while !board.is_game_over() {
            let moves = board.moves();
            if moves == 0 {
                pv.push(Move::Pass);
                board = board.pass();
                score = -score;
                continue;
            }
            let hash_move = self.tt.probe(&board).map_or(NO_MOVE, |b| b.best);
            let mut list = MoveList::default();
            list.score(&board, moves, hash_move, &*self.eval, crate::flip::flip);
            // Every child scores at least -score; the PV child scores no more than that.
            let (sq, child) = std::iter::from_fn(|| list.next_best())
                .find(|(_, child)| nws_with(self.isa, search, child, -score) <= -score)?;
            if search.stopped() {
                return None;
            }
            pv.push(Move::Play(sq));
            board = child;
            score = -score;
        }
        Some(pv)
    }
}
