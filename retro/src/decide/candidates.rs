//! A board whose side to move is not given (a CSV line of `retro check`): reachable when
//! a game reaches it with either side to move, unreachable only when neither is.

use std::path::Path;

use engine::{Color, Position};

use super::Decision;

/// The decisions on the candidates of one board, in the order asked: each side to move
/// in turn until one is reachable. A reachable side answers; else an undecided one (a
/// side left open says nothing of the other: a board whose one side is hard to refute is
/// often reachable with the other); else the last "no".
#[derive(Clone, Debug, PartialEq)]
pub struct Candidates {
    /// Each candidate decided, with its side to move.
    pub decisions: Vec<(Color, Decision)>,
}

impl Candidates {
    /// Decides `candidates` (one position, or the same board with each side to move) in
    /// turn with `decide` until one is reachable, first those that a game without passes
    /// may reach (a formula half the size: often answered sooner, and a "yes" ends the
    /// board); `None` where `decide` gives up on one (a quick pass that does not decide
    /// it).
    pub fn decide<E>(
        candidates: &[Position],
        mut decide: impl FnMut(&Position) -> Result<Option<Decision>, E>,
    ) -> Result<Option<Candidates>, E> {
        assert!(!candidates.is_empty(), "a board has a candidate at least");
        let mut asked: Vec<&Position> = candidates.iter().collect();
        asked.sort_by_key(|p| !satgen::target::no_passes_possible(p));
        let mut decisions = Vec::new();
        for p in asked {
            let Some(decision) = decide(p)? else {
                return Ok(None);
            };
            let reachable = decision.reachable;
            decisions.push((p.side, decision));
            if reachable == Some(true) {
                break;
            }
        }
        Ok(Some(Candidates { decisions }))
    }

    /// The decision that answers: the reachable one, else the first undecided, else the
    /// last "no".
    pub fn answer(&self) -> &Decision {
        let with =
            |answer: Option<bool>| self.decisions.iter().find(|(_, d)| d.reachable == answer);
        with(Some(true))
            .or_else(|| with(None))
            .or(self.decisions.last())
            .map(|(_, d)| d)
            .expect("one decision at least")
    }

    /// Whether the board is unreachable with every side to move asked.
    fn unreachable(&self) -> bool {
        self.answer().reachable == Some(false)
    }

    /// How the answer was shown: for a "no" on several sides, each side's certificate.
    pub fn certificate(&self) -> Option<String> {
        if self.decisions.len() > 1 && self.unreachable() {
            let parts: Vec<String> = self
                .decisions
                .iter()
                .map(|(side, d)| {
                    format!("{side} to move: {}", d.certificate.as_deref().unwrap_or(""))
                })
                .collect();
            return Some(parts.join("; "));
        }
        self.answer().certificate.clone()
    }

    /// The proof files of a "no" (one per side that kept one); none for another answer,
    /// though a side refuted before the reachable one may have kept a proof.
    pub fn proofs(&self) -> Vec<&Path> {
        if !self.unreachable() {
            return Vec::new();
        }
        self.decisions
            .iter()
            .filter_map(|(_, d)| d.proof.as_deref())
            .collect()
    }

    /// For a "no": as checked as the least checked of its sides; `None` otherwise.
    pub fn proof_checked(&self) -> Option<bool> {
        if !self.unreachable() {
            return None;
        }
        self.decisions
            .iter()
            .filter_map(|(_, d)| d.proof_checked)
            .min()
    }

    /// Positions the backward searches visited, on every side asked.
    pub fn nodes(&self) -> u64 {
        self.decisions.iter().map(|(_, d)| d.nodes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::Method;
    use std::convert::Infallible;
    use std::path::PathBuf;

    fn decision(reachable: Option<bool>, proof: Option<&str>, checked: Option<bool>) -> Decision {
        Decision {
            reachable,
            method: reachable.map(|_| Method::Sat),
            witness: None,
            certificate: Some(format!("{reachable:?}")),
            solver: None,
            proof: proof.map(PathBuf::from),
            proof_checked: checked,
            nodes: 10,
            seconds: 0.0,
            cpu_limit: None,
        }
    }

    /// Both sides of a board, each answered by `answers` in turn.
    fn decide(answers: &[Decision]) -> Candidates {
        let sides = [
            Position::START,
            Position {
                side: Color::White,
                ..Position::START
            },
        ];
        let mut answers = answers.iter().cloned();
        Candidates::decide(&sides, |_| Ok::<_, Infallible>(answers.next()))
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_board_is_unreachable_only_when_every_side_is() {
        let no = |proof, checked| decision(Some(false), proof, checked);
        // Black to move reachable: white is not asked, and black's answer stands.
        let yes = decide(&[decision(Some(true), None, None), no(None, Some(true))]);
        assert_eq!(yes.decisions.len(), 1);
        assert_eq!(yes.answer().reachable, Some(true));
        assert_eq!(yes.certificate().as_deref(), Some("Some(true)"));
        // Refuted for black, reachable for white: no proof is named for the "yes".
        let white = decide(&[
            no(Some("black.lrat"), Some(true)),
            decision(Some(true), None, None),
        ]);
        assert_eq!(
            (white.answer().reachable, white.proofs().len()),
            (Some(true), 0)
        );
        assert_eq!(white.proof_checked(), None);
        assert_eq!(white.nodes(), 20);
        // Refuted for both: both certificates and proofs, checked as the less checked.
        let both = decide(&[
            no(Some("b.lrat"), Some(true)),
            no(Some("w.lrat"), Some(false)),
        ]);
        assert_eq!(both.answer().reachable, Some(false));
        assert_eq!(
            both.certificate().as_deref(),
            Some("black to move: Some(false); white to move: Some(false)")
        );
        assert_eq!(both.proofs(), [Path::new("b.lrat"), Path::new("w.lrat")]);
        assert_eq!(both.proof_checked(), Some(false));
        // Undecided for black: white is asked all the same; a "no" there leaves the board
        // undecided, a "yes" answers.
        let open = decide(&[decision(None, None, None), no(None, None)]);
        assert_eq!((open.decisions.len(), open.answer().reachable), (2, None));
        assert_eq!(open.certificate().as_deref(), Some("None"));
        assert!(open.proofs().is_empty() && open.proof_checked().is_none());
        let later = decide(&[decision(None, None, None), decision(Some(true), None, None)]);
        assert_eq!(
            (later.decisions.len(), later.answer().reachable),
            (2, Some(true))
        );
        // The side that a game without passes may reach is asked first, whatever the
        // order given: black at the start.
        let white_first = [
            Position {
                side: Color::White,
                ..Position::START
            },
            Position::START,
        ];
        let asked = Candidates::decide(&white_first, |p| {
            Ok::<_, Infallible>(Some(decision(Some(p.side == Color::White), None, None)))
        });
        let sides: Vec<Color> = asked
            .unwrap()
            .unwrap()
            .decisions
            .iter()
            .map(|d| d.0)
            .collect();
        assert_eq!(sides, [Color::Black, Color::White]);
        // A quick pass that gives up gives no answer.
        let sides = [Position::START];
        let none = Candidates::decide(&sides, |_| Ok::<_, Infallible>(None)).unwrap();
        assert_eq!(none, None);
    }
}
