//! Exact scores and win/draw/loss from threshold questions: a binary search over even
//! thresholds that narrows the bounds each answer (and everything the table proved on the
//! way) gives, then the move that keeps the score.

use std::sync::atomic::AtomicBool;

use engine::search::Wld;
use engine::{Board, Move};

use crate::search::Prover;

/// How far (in discs) from the guess the exact score's thresholds walk before they halve
/// the interval instead: the selective search is rarely further off.
const GUESS_REACH: i32 = 4;

/// A threshold question asked on the way and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    /// "At least `threshold`?"
    pub threshold: i32,
    /// The answer.
    pub proven: bool,
    /// Nodes the question took (proof-number and alpha-beta together): what each of a
    /// draw's two questions costs, for one.
    pub nodes: u64,
}

/// An exact score found by threshold questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The exact final score for the side to move.
    pub score: i32,
    /// A move keeping the score (`Pass` if forced; `None` when the game is over).
    pub best_move: Option<Move>,
    /// The questions asked, in order.
    pub steps: Vec<Step>,
}

impl Prover {
    /// The exact score of `board` from threshold questions, and a best move. With a
    /// guess, the thresholds walk from it two at a time (MTD(f)-like: an exact guess takes
    /// two questions); beyond `GUESS_REACH` of it, or without one, they halve the interval
    /// the bounds leave.
    pub fn exact_score(&mut self, board: &Board, stop: &AtomicBool) -> Option<Exact> {
        let mut steps = Vec::new();
        let guess = self.guess(board, -65, 65, stop)?.map(Board::even_threshold);
        let mut walk = guess;
        loop {
            let (lower, upper) = self.bounds(board);
            if lower >= upper {
                let best_move = self.keeping_move(board, lower, stop)?;
                return Some(Exact {
                    score: lower,
                    best_move,
                    steps,
                });
            }
            // An even threshold in (lower, upper].
            let t = match (walk, guess) {
                (Some(w), Some(g)) if (w - g).abs() <= GUESS_REACH => w.clamp(lower + 2, upper),
                _ => lower + 2 * ((upper - lower + 3) / 4),
            };
            let step = self.ask(board, t, stop)?;
            walk = walk.map(|_| if step.proven { t + 2 } else { t - 2 });
            steps.push(step);
        }
    }

    /// "Does `board` score at least `threshold`?", answered and counted: a [`Step`], or
    /// `None` if `stop` was raised first.
    fn ask(&mut self, board: &Board, threshold: i32, stop: &AtomicBool) -> Option<Step> {
        let before = self.stats().nodes();
        let proven = self.prove(board, threshold, stop)?;
        Some(Step {
            threshold,
            proven,
            nodes: self.stats().nodes() - before,
        })
    }

    /// Win, draw or loss with at most two threshold questions (at least a draw? a win?),
    /// "a win?" first where the guess expects a win or a draw, "at least a draw?" first
    /// where it expects a loss or there is no guess; then a move that keeps a win or a
    /// draw (`None` for a loss, where every move loses, and when the game is over).
    pub fn wld(
        &mut self,
        board: &Board,
        stop: &AtomicBool,
    ) -> Option<(Wld, Option<Move>, Vec<Step>)> {
        let mut steps = Vec::new();
        // Only the sign is wanted: the narrow window makes the guess cheap. A draw needs
        // both questions, and the disproof of a win goes first: it leaves, for every
        // move, the bounds and leaf-table entries that make the draw's proof cheap; the
        // other way round the proof helps the disproof less (measured on fforum-40-59:
        // results/dfpn.md).
        let order = match self.guess(board, -1, 1, stop)? {
            Some(guess) if guess >= 0 => [2, 0],
            _ => [0, 2],
        };
        let mut wld = Wld::Draw;
        for threshold in order {
            let step = self.ask(board, threshold, stop)?;
            steps.push(step);
            match (threshold, step.proven) {
                (2, true) => wld = Wld::Win,
                (0, false) => wld = Wld::Loss,
                // At least a draw, not a win: a draw once both are asked.
                _ => continue,
            }
            break;
        }
        let best_move = match wld {
            Wld::Loss => None,
            _ => self.keeping_move(board, 2 * wld.sign(), stop)?,
        };
        Some((wld, best_move, steps))
    }

    /// A move after which the opponent scores at most `-score`, given that `board` scores
    /// at least `score`: first one the table already shows, else the first that a
    /// threshold question confirms, the alpha-beta table's best move first (where the
    /// root was a leaf, the table holds no child, and the leaf's search left that move:
    /// confirming it costs little, trying the others in turn may cost more than the
    /// question did).
    pub fn keeping_move(
        &mut self,
        board: &Board,
        score: i32,
        stop: &AtomicBool,
    ) -> Option<Option<Move>> {
        let mut kids = board.children();
        if kids.is_empty() {
            return Some(None);
        }
        if let Some((mv, _)) = kids
            .iter()
            .find(|(_, child)| self.bounds(child).1 <= -score)
        {
            return Some(Some(*mv));
        }
        if let Some(best) = self.table_move(board) {
            kids.sort_by_key(|(mv, _)| *mv != best);
        }
        for (mv, child) in &kids {
            if !self.prove(child, 2 - score, stop)? {
                return Some(Some(*mv));
            }
        }
        panic!("no move keeps a score the position was proved to reach")
    }
}
