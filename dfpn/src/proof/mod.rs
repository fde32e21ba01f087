//! Proof trees: the solution of a threshold question as a graph anyone can check.
//!
//! A node claims "the side to move scores at least `threshold`" (or that it does not). A
//! true claim is backed by one move to a child whose claim, at `2 - threshold`, is false; a
//! false claim by every legal move (or the forced pass) to a child whose claim is true.
//! Nodes without children are leaves: game over, or small enough for alpha-beta to decide
//! again. Transpositions are merged, so the proof is a directed acyclic graph (built with
//! petgraph, written as JSON to check and as DOT to look at).
//!
//! The checker, what a sceptical reader reads, stands alone in `check.rs`: it trusts
//! nothing of the search, only the core's rules and the alpha-beta solver at the leaves.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use engine::obf::Obf;
use engine::{Board, Move, Position};
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::{Deserialize, Serialize};

use crate::search::Prover;

mod check;

pub use check::{
    check, check_exact, check_exact_until, check_until, CheckError, Verified, VerifiedExact,
    CHECK_LEAF_EMPTIES,
};

/// The `format` field of a proof file of one threshold question.
pub const FORMAT: &str = "othello-dfpn-proof/1";

/// One claim in a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The position the claim is about.
    pub position: Position,
    /// The threshold asked (even: final scores are).
    pub threshold: i32,
    /// Whether the side to move scores at least `threshold`.
    pub holds: bool,
}

/// A proof tree of one claim: each inner node backed by the children its claim needs (one
/// for a claim that holds, every move for one that does not), each leaf small enough for
/// alpha-beta to decide again or the end of the game.
pub struct Proof {
    /// The claims, and the moves from each to the claims that back it.
    pub graph: DiGraph<Claim, Move>,
    /// The claim proved.
    pub root: NodeIndex,
}

/// The JSON form: nodes in depth-first order from the root (node 0), each with its moves
/// to the nodes that back it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofFile {
    /// [`FORMAT`].
    pub format: String,
    /// The claims, the root first.
    pub nodes: Vec<ProofNode>,
}

/// One claim of a [`ProofFile`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofNode {
    /// The position as an OBF board string and side to move.
    pub position: String,
    /// The threshold asked.
    pub threshold: i32,
    /// Whether the side to move scores at least `threshold`.
    pub holds: bool,
    /// (move, node index) pairs.
    pub children: Vec<(String, usize)>,
}

impl Prover {
    /// The proof of the answer to "does `position` score at least `threshold`?", searching
    /// again where the table has forgotten what it proved.
    pub fn proof(
        &mut self,
        position: &Position,
        threshold: i32,
        stop: &AtomicBool,
    ) -> Option<Proof> {
        let mut graph = DiGraph::new();
        let mut seen = HashMap::new();
        let root = self.prove_node(
            &mut graph,
            &mut seen,
            position,
            Board::even_threshold(threshold),
            stop,
        )?;
        Some(Proof { graph, root })
    }

    /// The two proofs that certify `score` as the exact score of `position`: "at least
    /// `score`" holds and "at least `score + 2`" does not (each absent where the rules
    /// decide it: every score is at least -64, none above 64).
    pub fn exact_proof(
        &mut self,
        position: &Position,
        score: i32,
        stop: &AtomicBool,
    ) -> Option<ExactProof> {
        let at_least = match score > -64 {
            true => Some(self.proof(position, score, stop)?),
            false => None,
        };
        let below = match score < 64 {
            true => Some(self.proof(position, score + 2, stop)?),
            false => None,
        };
        Some(ExactProof {
            score,
            at_least,
            below,
        })
    }

    fn prove_node(
        &mut self,
        graph: &mut DiGraph<Claim, Move>,
        seen: &mut HashMap<(Board, i32), NodeIndex>,
        position: &Position,
        t: i32,
        stop: &AtomicBool,
    ) -> Option<NodeIndex> {
        let board = position.board;
        if let Some(&node) = seen.get(&(board, t)) {
            return Some(node);
        }
        let holds = self.prove(&board, t, stop)?;
        let node = graph.add_node(Claim {
            position: *position,
            threshold: t,
            holds,
        });
        seen.insert((board, t), node);
        let kids = board.children();
        if kids.is_empty() || self.is_leaf(&board, t) {
            return Some(node);
        }
        let backing: Vec<(Move, Board)> = if holds {
            // One child that fails at 2 - t: one the table shows, else the first confirmed.
            let shown = kids.iter().find(|(_, child)| self.bounds(child).1 < 2 - t);
            let found = match shown {
                Some(&kid) => Some(kid),
                None => {
                    let mut found = None;
                    for &(mv, child) in &kids {
                        if !self.prove(&child, 2 - t, stop)? {
                            found = Some((mv, child));
                            break;
                        }
                    }
                    found
                }
            };
            vec![found.expect("a proved node has a failing child")]
        } else {
            kids.to_vec()
        };
        for (mv, _) in backing {
            let child = position.play(mv).expect("a legal move");
            let child_node = self.prove_node(graph, seen, &child, 2 - t, stop)?;
            graph.add_edge(node, child_node, mv);
        }
        Some(node)
    }
}

/// An exact score with its two proofs (see [`Prover::exact_proof`]).
pub struct ExactProof {
    /// The exact score.
    pub score: i32,
    /// "At least `score`" holds (none for -64).
    pub at_least: Option<Proof>,
    /// "At least `score + 2`" does not hold (none for 64).
    pub below: Option<Proof>,
}

/// The `format` field of an exact-score proof file.
pub const EXACT_FORMAT: &str = "othello-dfpn-exact/1";

/// The JSON form of an [`ExactProof`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactProofFile {
    /// [`EXACT_FORMAT`].
    pub format: String,
    /// The exact score claimed.
    pub score: i32,
    /// "At least `score`" holds (absent for -64).
    pub at_least: Option<ProofFile>,
    /// "At least `score + 2`" does not hold (absent for 64).
    pub below: Option<ProofFile>,
}

impl ExactProof {
    /// The JSON form.
    pub fn to_file(&self) -> ExactProofFile {
        ExactProofFile {
            format: EXACT_FORMAT.to_string(),
            score: self.score,
            at_least: self.at_least.as_ref().map(Proof::to_file),
            below: self.below.as_ref().map(Proof::to_file),
        }
    }

    /// Nodes in both proofs.
    pub fn nodes(&self) -> usize {
        [&self.at_least, &self.below]
            .into_iter()
            .flatten()
            .map(|p| p.graph.node_count())
            .sum()
    }
}

impl Proof {
    /// The JSON form.
    pub fn to_file(&self) -> ProofFile {
        // Number the nodes depth-first from the root so node 0 is the root.
        let mut order = Vec::new();
        let mut number = HashMap::new();
        let mut stack = vec![self.root];
        while let Some(node) = stack.pop() {
            if number.contains_key(&node) {
                continue;
            }
            number.insert(node, order.len());
            order.push(node);
            let mut next: Vec<NodeIndex> = self.graph.neighbors(node).collect();
            next.reverse();
            stack.extend(next);
        }
        let nodes = order
            .iter()
            .map(|&node| {
                let claim = self.graph[node];
                let mut children: Vec<(String, usize)> = self
                    .graph
                    .edges(node)
                    .map(|e| (e.weight().to_string(), number[&e.target()]))
                    .collect();
                children.sort();
                ProofNode {
                    position: position_text(&claim.position),
                    threshold: claim.threshold,
                    holds: claim.holds,
                    children,
                }
            })
            .collect();
        ProofFile {
            format: FORMAT.to_string(),
            nodes,
        }
    }

    /// Graphviz: nodes labelled with empties and the claim, edges with the move.
    pub fn to_dot(&self) -> String {
        let edge = |_, e: petgraph::graph::EdgeReference<Move>| format!("label=\"{}\"", e.weight());
        let node = |_, (_, c): (NodeIndex, &Claim)| {
            let relation = if c.holds { ">=" } else { "<" };
            format!(
                "label=\"{} empties\\n{} {relation} {}\" shape=box",
                c.position.board.empty_count(),
                c.position.side,
                c.threshold
            )
        };
        let config = [Config::EdgeNoLabel, Config::NodeNoLabel];
        format!(
            "{:?}",
            Dot::with_attr_getters(&self.graph, &config, &edge, &node)
        )
    }
}

/// An OBF board string with the side to move, e.g. `---...OX X;`.
pub fn position_text(position: &Position) -> String {
    Obf::new(*position).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;
    use engine::search::Solver;

    fn small_prover() -> Prover {
        Prover::new(Options {
            leaf_empties: 6,
            easy_leaf_empties: 0,
            table_mb: 4,
            leaf_table_mb: 4,
            ..Options::default()
        })
    }

    #[test]
    fn proofs_of_both_answers_check_and_tampering_fails() {
        // FFO #1 has 14 empties and scores +18.
        let obf: Obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;"
            .parse()
            .unwrap();
        let solver = Solver::new(4);
        let never = AtomicBool::new(false);
        for (t, holds) in [(18, true), (20, false)] {
            let mut prover = small_prover();
            let proof = prover.proof(&obf.position, t, &never).unwrap();
            let file = proof.to_file();
            let verified = check(&file, &solver, CHECK_LEAF_EMPTIES).unwrap();
            assert_eq!((verified.threshold, verified.holds), (t, holds));
            assert!(verified.nodes > 1);
            // The drawing has every claim and every move of the proof, the root's claim
            // as it was asked.
            let dot = proof.to_dot();
            let boxes = dot.lines().filter(|l| l.contains("shape=box")).count();
            let arrows: Vec<&str> = dot.lines().filter(|l| l.contains(" -> ")).collect();
            assert_eq!(boxes, proof.graph.node_count(), "{dot}");
            assert_eq!(arrows.len(), proof.graph.edge_count(), "{dot}");
            for edge in proof.graph.edge_references() {
                assert!(
                    dot.contains(&format!("label=\"{}\"", edge.weight())),
                    "{dot}"
                );
            }
            let relation = if holds { ">=" } else { "<" };
            let root = format!("{} {relation} {t}\"", obf.position.side);
            assert!(
                dot.lines().nth(1).is_some_and(|l| l.contains(&root)),
                "{dot}"
            );
            let json = serde_json::to_string(&file).unwrap();
            assert_eq!(serde_json::from_str::<ProofFile>(&json).unwrap(), file);

            // Claim the opposite at the root.
            let mut tampered = file.clone();
            tampered.nodes[0].holds = !holds;
            assert!(check(&tampered, &solver, CHECK_LEAF_EMPTIES).is_err());
            // Drop a backing move of some false claim (true claims have only one).
            let mut tampered = file.clone();
            let node = tampered
                .nodes
                .iter_mut()
                .find(|n| !n.holds && n.children.len() > 1)
                .unwrap();
            node.children.pop();
            assert!(check(&tampered, &solver, CHECK_LEAF_EMPTIES).is_err());
            // A proof that is only its root leaf holds only if alpha-beta agrees.
            let mut leaf = file.clone();
            leaf.nodes.truncate(1);
            leaf.nodes[0].children.clear();
            assert!(check(&leaf, &solver, CHECK_LEAF_EMPTIES).is_ok());
            // The same leaf refused by a checker that decides only 10 empties again.
            assert!(check(&leaf, &solver, 10)
                .unwrap_err()
                .to_string()
                .contains("a leaf with 14 empties"));
            // Stopped (Ctrl-C) before its leaf is decided again: no verdict either way.
            assert!(matches!(
                check_until(&leaf, &solver, CHECK_LEAF_EMPTIES, &AtomicBool::new(true)),
                Err(CheckError::Interrupted)
            ));
            leaf.nodes[0].holds = !holds;
            assert!(matches!(
                check(&leaf, &solver, CHECK_LEAF_EMPTIES),
                Err(CheckError::Node { node: 0, .. })
            ));
        }
    }

    #[test]
    fn exact_proofs_pin_the_score_and_a_wrong_half_fails() {
        let obf: Obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;"
            .parse()
            .unwrap();
        let solver = Solver::new(4);
        let never = AtomicBool::new(false);
        let mut prover = small_prover();
        let file = prover
            .exact_proof(&obf.position, 18, &never)
            .unwrap()
            .to_file();
        let verified = check_exact(&file, &solver, CHECK_LEAF_EMPTIES).unwrap();
        assert_eq!(verified.score, 18);
        // A claim of another score: its halves no longer say so.
        let mut wrong = file.clone();
        wrong.score = 16;
        assert!(check_exact(&wrong, &solver, CHECK_LEAF_EMPTIES).is_err());
        // A half left out.
        let mut wrong = file.clone();
        wrong.below = None;
        assert!(check_exact(&wrong, &solver, CHECK_LEAF_EMPTIES)
            .unwrap_err()
            .to_string()
            .contains("below half is missing"));
        // A half altered: a backing move dropped.
        let mut wrong = file.clone();
        let below = wrong.below.as_mut().unwrap();
        let node = below
            .nodes
            .iter_mut()
            .find(|n| !n.holds && n.children.len() > 1)
            .unwrap();
        node.children.pop();
        assert!(check_exact(&wrong, &solver, CHECK_LEAF_EMPTIES).is_err());
        // A half of another position.
        let other: Obf = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- O;"
            .parse()
            .unwrap();
        let mut wrong = file.clone();
        let other_proof = prover.proof(&other.position, 20, &never).unwrap().to_file();
        wrong.below = Some(other_proof);
        assert!(check_exact(&wrong, &solver, CHECK_LEAF_EMPTIES).is_err());
    }

    /// On several threads the error named is still the first bad node's.
    #[test]
    fn the_first_bad_node_is_named_on_any_number_of_threads() {
        let obf: Obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;"
            .parse()
            .unwrap();
        let never = AtomicBool::new(false);
        let mut file = small_prover()
            .proof(&obf.position, 20, &never)
            .unwrap()
            .to_file();
        let inner: Vec<usize> = (0..file.nodes.len())
            .filter(|&i| !file.nodes[i].children.is_empty())
            .collect();
        assert!(inner.len() >= 3);
        // Two inner nodes far apart list a move twice; the first of them must be named.
        let (first, last) = (inner[inner.len() / 2], inner[inner.len() - 1]);
        for i in [first, last] {
            let repeated = file.nodes[i].children[0].clone();
            file.nodes[i].children.push(repeated);
        }
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let error = pool.install(|| check(&file, &Solver::new(4), CHECK_LEAF_EMPTIES));
            assert!(
                matches!(error, Err(CheckError::Node { node, .. }) if node == first),
                "{threads} threads: {error:?}"
            );
        }
    }
}
