//! Exact scores and win/draw/loss from threshold questions: a binary search over even
//! thresholds that narrows the bounds each answer (and everything the table proved on the
//! way) gives, then the move that keeps the score.

use std::sync::atomic::AtomicBool;

use engine::{Board, Move};

use crate::search::{children, Prover};

/// A threshold question asked on the way and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub threshold: i32,
    pub proven: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    pub score: i32,
    /// A move keeping the score (`Pass` if forced; `None` when the game is over).
    pub best_move: Option<Move>,
    pub steps: Vec<Step>,
}

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wld {
    Win,
    Draw,
    Loss,
}

impl Wld {
    pub fn of_score(score: i32) -> Wld {
        match score.signum() {
            1 => Wld::Win,
            0 => Wld::Draw,
            _ => Wld::Loss,
        }
    }

    /// +1, 0 or -1.
    pub fn sign(self) -> i32 {
        match self {
            Wld::Win => 1,
            Wld::Draw => 0,
            Wld::Loss => -1,
        }
    }
}

impl std::fmt::Display for Wld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Wld::Win => "win",
            Wld::Draw => "draw",
            Wld::Loss => "loss",
        })
    }
}

impl Prover {
    /// The exact score of `board` by binary search over thresholds, and a best move.
    pub fn exact_score(&mut self, board: &Board, stop: &AtomicBool) -> Option<Exact> {
        let mut steps = Vec::new();
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
            // The even threshold halfway into (lower, upper].
            let t = lower + 2 * ((upper - lower + 3) / 4);
            let proven = self.prove(board, t, stop)?;
            steps.push(Step {
                threshold: t,
                proven,
            });
        }
    }

    /// Win, draw or loss with at most two threshold questions (at least a draw? a win?).
    pub fn wld(&mut self, board: &Board, stop: &AtomicBool) -> Option<(Wld, Vec<Step>)> {
        let mut steps = Vec::new();
        for threshold in [0, 2] {
            let proven = self.prove(board, threshold, stop)?;
            steps.push(Step { threshold, proven });
            if !proven {
                let wld = if threshold == 0 { Wld::Loss } else { Wld::Draw };
                return Some((wld, steps));
            }
        }
        Some((Wld::Win, steps))
    }

    /// A move after which the opponent scores at most `-score`, given that `board` scores
    /// at least `score`: first one the table already shows, else the first that a
    /// threshold question confirms.
    pub fn keeping_move(
        &mut self,
        board: &Board,
        score: i32,
        stop: &AtomicBool,
    ) -> Option<Option<Move>> {
        let kids = children(board);
        if kids.is_empty() {
            return Some(None);
        }
        if let Some((mv, _)) = kids
            .iter()
            .find(|(_, child)| self.bounds(child).1 <= -score)
        {
            return Some(Some(*mv));
        }
        for (mv, child) in &kids {
            if !self.prove(child, 2 - score, stop)? {
                return Some(Some(*mv));
            }
        }
        panic!("no move keeps a score the position was proved to reach")
    }
}
