//! The proof checker: a proof file checked from scratch with the core's rules and the
//! alpha-beta solver at the leaves, trusting nothing of the search that wrote it.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use engine::obf::Obf;
use engine::search::{Solver, Stop};
use engine::{Move, Position};
use rayon::prelude::*;
use serde::Serialize;

use super::{ExactProofFile, ProofFile, ProofNode, EXACT_FORMAT, FORMAT};

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verified {
    /// The root position (OBF board string and side to move).
    pub position: String,
    /// The threshold of the root's claim.
    pub threshold: i32,
    /// Whether the side to move scores at least `threshold`.
    pub holds: bool,
    /// Claims checked.
    pub nodes: usize,
    /// Leaves decided again by alpha-beta or by the end of the game.
    pub leaves: usize,
    /// Nodes alpha-beta searched to decide the leaves again.
    pub leaf_nodes: u64,
}

/// Why a proof does not prove anything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The file is not a proof of this format.
    #[error("not a proof file: {0}")]
    Format(String),
    /// A claim that does not follow (from its children, or from the search at a leaf).
    #[error("node {node}: {problem}")]
    Node {
        /// The node's index in the file.
        node: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// Stopped (Ctrl-C or SIGTERM) before every node was checked: no verdict.
    #[error("stopped before the check ended")]
    Interrupted,
}

/// Leaves with more empties than this are refused by default: `dfpn prove` makes leaves of
/// at most `--leaf-empties` empties ([`crate::search::LEAF_EMPTIES`] by default) or
/// `--easy-leaf-empties` (none by default), and an alpha-beta check of a leaf far from the
/// end (a hostile or broken file: the start position as a leaf) would not end.
pub const CHECK_LEAF_EMPTIES: u32 = crate::search::LEAF_EMPTIES;

/// Checks `file` from scratch with the core rules and the alpha-beta solver: every move is
/// legal and leads to the position written, thresholds alternate as `2 - t`, a true claim
/// has a child whose claim is false, a false claim has every legal move with a true claim,
/// and every leaf is decided again by the end of the game or by alpha-beta; a leaf with
/// more than `leaf_empties` empties is refused rather than searched.
pub fn check(file: &ProofFile, solver: &Solver, leaf_empties: u32) -> Result<Verified, CheckError> {
    check_until(file, solver, leaf_empties, &AtomicBool::new(false))
}

/// [`check`], given up ([`CheckError::Interrupted`]) once `stop` is raised: deciding the
/// leaves again can take as long as proving them.
pub fn check_until(
    file: &ProofFile,
    solver: &Solver,
    leaf_empties: u32,
    stop: &AtomicBool,
) -> Result<Verified, CheckError> {
    if file.format != FORMAT {
        return Err(CheckError::Format(format!(
            "format is {:?}, expected {FORMAT:?}",
            file.format
        )));
    }
    if file.nodes.is_empty() {
        return Err(CheckError::Format("no nodes".into()));
    }
    let bad = |node: usize, problem: String| CheckError::Node { node, problem };
    let positions = file
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            n.position
                .parse::<Obf>()
                .map(|obf| obf.position)
                .map_err(|e| bad(i, format!("position {:?}: {e}", n.position)))
        })
        .collect::<Result<Vec<Position>, CheckError>>()?;
    // Each node checks alone (leaves decided again by alpha-beta are most of the work), on
    // the current rayon pool; the error reported is the first node's, as one thread would.
    let checked: Vec<Result<Option<u64>, CheckError>> = file
        .nodes
        .par_iter()
        .enumerate()
        .map(|(i, node)| check_node(i, node, &file.nodes, &positions, solver, leaf_empties, stop))
        .collect();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(CheckError::Interrupted);
    }
    let leaves: Vec<Option<u64>> = checked.into_iter().collect::<Result<_, _>>()?;
    let decided = leaves.iter().flatten();
    Ok(Verified {
        position: file.nodes[0].position.clone(),
        threshold: file.nodes[0].threshold,
        holds: file.nodes[0].holds,
        nodes: file.nodes.len(),
        leaves: decided.clone().count(),
        leaf_nodes: decided.sum(),
    })
}

/// Checks node `i` of a proof: a leaf is decided again (the nodes alpha-beta searched,
/// `None` for an inner node); an inner node's moves and children's claims are checked.
fn check_node(
    i: usize,
    node: &ProofNode,
    nodes: &[ProofNode],
    positions: &[Position],
    solver: &Solver,
    leaf_empties: u32,
    stop: &AtomicBool,
) -> Result<Option<u64>, CheckError> {
    let bad = |node: usize, problem: String| CheckError::Node { node, problem };
    let board = positions[i].board;
    let t = node.threshold;
    if !(-64..=64).contains(&t) || t % 2 != 0 {
        return Err(bad(i, format!("threshold {t} is not an even score")));
    }
    if node.children.is_empty() {
        if !board.is_game_over() && board.empty_count() > leaf_empties {
            return Err(bad(
                i,
                format!(
                    "a leaf with {} empties: more than the {leaf_empties} the checker decides \
                     again (--leaf-empties raises it)",
                    board.empty_count()
                ),
            ));
        }
        let (score_holds, searched) = if board.is_game_over() {
            (board.final_score() >= t, 0)
        } else {
            let (bound, searched) = solver.null_window(&board, t - 1, Stop::new(stop), true);
            (bound.ok_or(CheckError::Interrupted)? >= t, searched)
        };
        if score_holds != node.holds {
            return Err(bad(
                i,
                format!(
                    "leaf claims {} at {t} but the search says otherwise",
                    node.holds
                ),
            ));
        }
        return Ok(Some(searched));
    }
    let legal: HashSet<Move> = board.children().into_iter().map(|(mv, _)| mv).collect();
    let mut moves = HashSet::new();
    for (text, target) in &node.children {
        let mv: Move = text
            .parse()
            .map_err(|e| bad(i, format!("move {text:?}: {e}")))?;
        if !legal.contains(&mv) {
            return Err(bad(i, format!("{mv} is not a legal move")));
        }
        if !moves.insert(mv) {
            return Err(bad(i, format!("{mv} is listed twice")));
        }
        let child = nodes
            .get(*target)
            .ok_or_else(|| bad(i, format!("move {mv} leads to missing node {target}")))?;
        let expected = positions[i].play(mv).expect("a legal move");
        if positions[*target] != expected {
            return Err(bad(
                i,
                format!("move {mv} does not lead to the position of node {target}"),
            ));
        }
        if child.threshold != 2 - t || child.holds == node.holds {
            return Err(bad(
                i,
                format!(
                    "node {target} after {mv} must claim the opposite at {}",
                    2 - t
                ),
            ));
        }
    }
    if !node.holds && moves != legal {
        return Err(bad(
            i,
            format!("a false claim needs all {} legal moves backed", legal.len()),
        ));
    }
    Ok(None)
}

/// What a successful check of an exact-score proof established.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifiedExact {
    /// The root position (OBF board string and side to move).
    pub position: String,
    /// The exact score both halves establish.
    pub score: i32,
    /// The check of "at least `score`".
    pub at_least: Option<Verified>,
    /// The check of "not at least `score + 2`".
    pub below: Option<Verified>,
}

/// Checks both halves of `file` with [`check`], and that together they pin the score: the
/// same root position, "at least `score`" true and "at least `score + 2`" false, a half
/// left out only where the rules make it needless (`score` -64 or 64).
pub fn check_exact(
    file: &ExactProofFile,
    solver: &Solver,
    leaf_empties: u32,
) -> Result<VerifiedExact, CheckError> {
    check_exact_until(file, solver, leaf_empties, &AtomicBool::new(false))
}

/// [`check_exact`], given up ([`CheckError::Interrupted`]) once `stop` is raised.
pub fn check_exact_until(
    file: &ExactProofFile,
    solver: &Solver,
    leaf_empties: u32,
    stop: &AtomicBool,
) -> Result<VerifiedExact, CheckError> {
    if file.format != EXACT_FORMAT {
        return Err(CheckError::Format(format!(
            "format is {:?}, expected {EXACT_FORMAT:?}",
            file.format
        )));
    }
    let score = file.score;
    if !(-64..=64).contains(&score) || score % 2 != 0 {
        return Err(CheckError::Format(format!(
            "score {score} is not an even score"
        )));
    }
    let half =
        |proof: &Option<ProofFile>, name: &str, needed: bool, threshold: i32, holds: bool| {
            let Some(proof) = proof else {
                return match needed {
                    true => Err(CheckError::Format(format!("the {name} half is missing"))),
                    false => Ok(None),
                };
            };
            let verified = check_until(proof, solver, leaf_empties, stop).map_err(|e| match e {
                CheckError::Interrupted => e,
                e => CheckError::Format(format!("the {name} half: {e}")),
            })?;
            if (verified.threshold, verified.holds) != (threshold, holds) {
                return Err(CheckError::Format(format!(
                    "the {name} half proves {} {}, not {} {threshold}",
                    if verified.holds {
                        "at least"
                    } else {
                        "less than"
                    },
                    verified.threshold,
                    if holds { "at least" } else { "less than" },
                )));
            }
            Ok(Some(verified))
        };
    let at_least = half(&file.at_least, "at-least", score > -64, score, true)?;
    let below = half(&file.below, "below", score < 64, score + 2, false)?;
    let position = match (&at_least, &below) {
        (Some(a), Some(b)) if a.position != b.position => {
            return Err(CheckError::Format(format!(
                "the halves are about different positions: {} and {}",
                a.position, b.position
            )))
        }
        (Some(v), _) | (_, Some(v)) => v.position.clone(),
        (None, None) => return Err(CheckError::Format("no half".into())),
    };
    Ok(VerifiedExact {
        position,
        score,
        at_least,
        below,
    })
}
