//! One question over many machines. A threshold question ("does the side to move score at
//! least t?") is expanded to a frontier a fixed number of plies down; each frontier
//! position, with the threshold its depth gives it (`t`, `2 - t`, `t`...), is a job: an
//! independent `dfpn prove` run anywhere (GNU parallel, a Slurm array), each writing a
//! proof of its own. Joined, the jobs' answers decide the root by negamax over the
//! frontier's tree, and their proofs with that tree make one proof of the root, which
//! `dfpn check-proof` checks as any other. A job whose answer can no longer change the
//! root's (a sibling already proved the node above it) is unnecessary: [`Split::status`]
//! lists them, for a scheduler to cancel.

use std::collections::HashMap;

use engine::{Board, Position};
use serde::{Deserialize, Serialize};

use crate::proof::{position_text, ProofFile, ProofNode, FORMAT};

/// The `format` field of a split file.
pub const SPLIT_FORMAT: &str = "othello-dfpn-split/1";

/// The tree of a question down to its frontier (the JSON a split writes and a join reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    /// [`SPLIT_FORMAT`].
    pub format: String,
    /// The nodes, the root first; transpositions are one node.
    pub nodes: Vec<SplitNode>,
    /// The jobs: the node each asks about, in the order they are numbered from 0.
    pub jobs: Vec<usize>,
}

/// A node of a [`Split`]: a question on the way to the frontier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitNode {
    /// The position (OBF board string and side to move).
    pub position: String,
    /// The threshold asked there (even).
    pub threshold: i32,
    /// (move, node index) pairs: every legal move, or the forced pass.
    pub children: Vec<(String, usize)>,
    /// The job answering it, at the frontier; `None` above it and where the game ends.
    pub job: Option<usize>,
}

/// Where a join stands: each job done, still needed, or unnecessary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The root's answer, once the jobs done decide it.
    pub holds: Option<bool>,
    /// Jobs answered.
    pub done: Vec<usize>,
    /// Jobs not answered whose answer the root may still need.
    pub needed: Vec<usize>,
    /// Jobs not answered whose answer cannot change the root's: cancel them.
    pub unnecessary: Vec<usize>,
    /// The needed jobs to start now, the eldest brother first (as the engine's split
    /// search waits): below a node, its first move's jobs alone until that move is
    /// decided, then the other moves' (none of them wasted where the first refutes).
    pub ready: Vec<usize>,
}

/// Why parts do not join into a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    /// A file that is not a split of this format.
    #[error("not a split file: {0}")]
    Format(String),
    /// A part whose root is no job of the split.
    #[error("{part}: its root ({position} at {threshold}) is no job of this split")]
    Foreign {
        /// The part.
        part: String,
        /// Its root's position.
        position: String,
        /// Its root's threshold.
        threshold: i32,
    },
    /// Two parts for one job.
    #[error("{part}: job {job} again (also {first})")]
    Repeated {
        /// The second part.
        part: String,
        /// The job.
        job: usize,
        /// The first part.
        first: String,
    },
    /// Not enough jobs answered to decide the root.
    #[error("the root is not decided yet: jobs {} needed", list(.0))]
    Missing(Vec<usize>),
    /// Two parts that claim opposite answers for one question.
    #[error("{first} and {second} disagree on {position} at {threshold}")]
    Disagree {
        /// One part.
        first: String,
        /// The other.
        second: String,
        /// The position.
        position: String,
        /// The threshold.
        threshold: i32,
    },
}

fn list(jobs: &[usize]) -> String {
    jobs.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A job's answer: its proof file, named as the join's errors name it.
pub struct Part {
    /// Where it was read from.
    pub name: String,
    /// The proof of its job's question.
    pub proof: ProofFile,
}

impl Split {
    /// The tree of "does `position` score at least `threshold`?" down to `depth` plies
    /// (a pass is a ply), every position there a job. Each node's children come in the
    /// order of `rank` (the child's value for its side to move, lowest first: the parent's
    /// best moves first), so that jobs run in file order meet the refutations first and
    /// make their siblings unnecessary soonest.
    pub fn new(
        position: &Position,
        threshold: i32,
        depth: u32,
        rank: impl Fn(&Board) -> i32,
    ) -> Split {
        let mut split = Split {
            format: SPLIT_FORMAT.into(),
            nodes: Vec::new(),
            jobs: Vec::new(),
        };
        let mut seen = HashMap::new();
        let t = Board::even_threshold(threshold);
        split.expand(position, t, depth, &rank, &mut seen);
        split
    }

    fn expand(
        &mut self,
        position: &Position,
        t: i32,
        depth: u32,
        rank: &impl Fn(&Board) -> i32,
        seen: &mut HashMap<(Board, i32), usize>,
    ) -> usize {
        if let Some(&node) = seen.get(&(position.board, t)) {
            return node;
        }
        let node = self.nodes.len();
        seen.insert((position.board, t), node);
        self.nodes.push(SplitNode {
            position: position_text(position),
            threshold: t,
            children: Vec::new(),
            job: None,
        });
        let mut children = position.board.children();
        if children.is_empty() {
            return node;
        }
        if depth == 0 {
            self.nodes[node].job = Some(self.jobs.len());
            self.jobs.push(node);
            return node;
        }
        children.sort_by_cached_key(|(_, child)| rank(child));
        for (mv, _) in children {
            let child = position.play(mv).expect("a legal move");
            let index = self.expand(&child, 2 - t, depth - 1, rank, seen);
            self.nodes[node].children.push((mv.to_string(), index));
        }
        node
    }

    /// Checks what a split file read claims to be: its format, its nodes' indices.
    pub fn validate(&self) -> Result<(), JoinError> {
        let bad = |what: String| Err(JoinError::Format(what));
        if self.format != SPLIT_FORMAT {
            return bad(format!(
                "format is {:?}, expected {SPLIT_FORMAT:?}",
                self.format
            ));
        }
        if self.nodes.is_empty() {
            return bad("no nodes".into());
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.children.iter().any(|&(_, c)| c >= self.nodes.len()) {
                return bad(format!("node {i} leads to a missing node"));
            }
            if let Some(job) = node.job {
                if self.jobs.get(job) != Some(&i) {
                    return bad(format!("node {i} names job {job}, which is not its"));
                }
            }
        }
        if let Some(job) = self.jobs.iter().position(|&n| n >= self.nodes.len()) {
            return bad(format!("job {job} asks a missing node"));
        }
        Ok(())
    }

    /// Each node's answer as far as `answers` (by job) decide it: a frontier node's is
    /// its job's; where the game ends, the final score's; above, negamax (a claim holds
    /// when a child's fails, fails when every child's holds).
    fn values(&self, answers: &HashMap<usize, bool>) -> Vec<Option<bool>> {
        let mut values = vec![None; self.nodes.len()];
        let mut valued = vec![false; self.nodes.len()];
        self.value(0, answers, &mut values, &mut valued);
        values
    }

    /// [`Split::values`] of node `i` and below, each node valued once (a transposition is
    /// reached from several parents).
    fn value(
        &self,
        i: usize,
        answers: &HashMap<usize, bool>,
        values: &mut [Option<bool>],
        valued: &mut [bool],
    ) -> Option<bool> {
        if valued[i] {
            return values[i];
        }
        let node = &self.nodes[i];
        let value = match node.job {
            Some(job) => answers.get(&job).copied(),
            None if node.children.is_empty() => Some(self.final_score(i) >= node.threshold),
            None => {
                let kids: Vec<Option<bool>> = node
                    .children
                    .iter()
                    .map(|&(_, c)| self.value(c, answers, values, valued))
                    .collect();
                if kids.contains(&Some(false)) {
                    Some(true)
                } else if kids.iter().all(|&v| v == Some(true)) {
                    Some(false)
                } else {
                    None
                }
            }
        };
        (values[i], valued[i]) = (value, true);
        value
    }

    fn final_score(&self, node: usize) -> i32 {
        let obf: engine::Obf = self.nodes[node]
            .position
            .parse()
            .expect("a split's own position");
        obf.position.board.final_score()
    }

    /// Where the jobs stand once those in `answers` are done.
    pub fn status(&self, answers: &HashMap<usize, bool>) -> Status {
        let values = self.values(answers);
        let mut needed = vec![false; self.jobs.len()];
        // Down from the root through undecided nodes only: a decided node needs nothing
        // more below it.
        let mut stack = vec![0];
        let mut visited = vec![false; self.nodes.len()];
        while let Some(i) = stack.pop() {
            if visited[i] || values[i].is_some() {
                continue;
            }
            visited[i] = true;
            match self.nodes[i].job {
                Some(job) => needed[job] = true,
                None => stack.extend(self.nodes[i].children.iter().map(|&(_, c)| c)),
            }
        }
        let mut status = Status {
            holds: values[0],
            ..Status::default()
        };
        let mut ready = vec![false; self.jobs.len()];
        let mut visited = vec![false; self.nodes.len()];
        self.mark_ready(0, answers, &values, &mut ready, &mut visited);
        for (job, &needed) in needed.iter().enumerate() {
            match (answers.contains_key(&job), needed) {
                (true, _) => status.done.push(job),
                (false, true) => status.needed.push(job),
                (false, false) => status.unnecessary.push(job),
            }
        }
        status.ready = (0..self.jobs.len()).filter(|&j| ready[j]).collect();
        status
    }

    /// Marks the jobs below undecided node `i` that start now: its eldest child's alone
    /// while that child is undecided, else those of every undecided child.
    fn mark_ready(
        &self,
        i: usize,
        answers: &HashMap<usize, bool>,
        values: &[Option<bool>],
        ready: &mut [bool],
        visited: &mut [bool],
    ) {
        if values[i].is_some() || visited[i] {
            return;
        }
        visited[i] = true;
        let node = &self.nodes[i];
        if let Some(job) = node.job {
            ready[job] = !answers.contains_key(&job);
            return;
        }
        let eldest = node.children.first().map(|&(_, c)| c);
        match eldest {
            Some(c) if values[c].is_none() => self.mark_ready(c, answers, values, ready, visited),
            _ => {
                for &(_, c) in &node.children {
                    self.mark_ready(c, answers, values, ready, visited);
                }
            }
        }
    }

    /// The job each part answers, and its answer: a part's root must be a job's question,
    /// and no job answered twice.
    pub fn answers(&self, parts: &[Part]) -> Result<HashMap<usize, (bool, usize)>, JoinError> {
        let by_question: HashMap<(&str, i32), usize> = self
            .jobs
            .iter()
            .enumerate()
            .map(|(job, &n)| {
                (
                    (self.nodes[n].position.as_str(), self.nodes[n].threshold),
                    job,
                )
            })
            .collect();
        let mut answers: HashMap<usize, (bool, usize)> = HashMap::new();
        for (p, part) in parts.iter().enumerate() {
            let root = part.proof.nodes.first().ok_or_else(|| {
                JoinError::Format(format!("{}: a proof without nodes", part.name))
            })?;
            let Some(&job) = by_question.get(&(root.position.as_str(), root.threshold)) else {
                return Err(JoinError::Foreign {
                    part: part.name.clone(),
                    position: root.position.clone(),
                    threshold: root.threshold,
                });
            };
            if let Some(&(_, first)) = answers.get(&job) {
                return Err(JoinError::Repeated {
                    part: part.name.clone(),
                    job,
                    first: parts[first].name.clone(),
                });
            }
            answers.insert(job, (root.holds, p));
        }
        Ok(answers)
    }

    /// One proof of the root from the parts: the frontier's tree above (one failing child
    /// under a claim that holds, every child under one that fails) and the parts' proofs
    /// below, a question met twice one node. Only the parts the root needs are taken.
    pub fn join(&self, parts: &[Part]) -> Result<ProofFile, JoinError> {
        self.validate()?;
        let answers = self.answers(parts)?;
        let holds: HashMap<usize, bool> = answers.iter().map(|(&j, &(h, _))| (j, h)).collect();
        let values = self.values(&holds);
        if values[0].is_none() {
            return Err(JoinError::Missing(self.status(&holds).needed));
        }
        let mut joined = Joined {
            split: self,
            parts,
            answers: &answers,
            values: &values,
            nodes: Vec::new(),
            by_question: HashMap::new(),
        };
        joined.split_node(0)?;
        Ok(ProofFile {
            format: FORMAT.into(),
            nodes: joined.nodes,
        })
    }
}

/// A join being built: the proof's nodes, and which question each is (to merge the
/// questions met twice, and to catch two parts that disagree on one).
struct Joined<'a> {
    split: &'a Split,
    parts: &'a [Part],
    answers: &'a HashMap<usize, (bool, usize)>,
    values: &'a [Option<bool>],
    nodes: Vec<ProofNode>,
    /// (position, threshold) -> (node of the proof, the part or split it came from).
    by_question: HashMap<(String, i32), (usize, String)>,
}

impl Joined<'_> {
    /// The proof node of a question, made once: `None` where it is new (and now added),
    /// with the index it has.
    fn node(
        &mut self,
        position: &str,
        threshold: i32,
        holds: bool,
        from: &str,
    ) -> Result<(usize, bool), JoinError> {
        let key = (position.to_string(), threshold);
        if let Some((index, first)) = self.by_question.get(&key) {
            if self.nodes[*index].holds != holds {
                return Err(JoinError::Disagree {
                    first: first.clone(),
                    second: from.into(),
                    position: position.into(),
                    threshold,
                });
            }
            return Ok((*index, false));
        }
        let index = self.nodes.len();
        self.nodes.push(ProofNode {
            position: position.into(),
            threshold,
            holds,
            children: Vec::new(),
        });
        self.by_question.insert(key, (index, from.into()));
        Ok((index, true))
    }

    fn split_node(&mut self, i: usize) -> Result<usize, JoinError> {
        let node = &self.split.nodes[i];
        if let Some(job) = node.job {
            let (_, part) = self.answers[&job];
            return self.part_node(part, 0);
        }
        let holds = self.values[i].expect("a decided node");
        let (index, new) = self.node(&node.position, node.threshold, holds, "the split")?;
        if !new {
            return Ok(index);
        }
        // A claim that holds needs one child that fails; one that fails, every child.
        let backing: Vec<(String, usize)> = node
            .children
            .iter()
            .filter(|&&(_, c)| !holds || self.values[c] == Some(false))
            .take(if holds { 1 } else { usize::MAX })
            .cloned()
            .collect();
        for (mv, c) in backing {
            let child = self.split_node(c)?;
            self.nodes[index].children.push((mv, child));
        }
        Ok(index)
    }

    fn part_node(&mut self, part: usize, k: usize) -> Result<usize, JoinError> {
        let Some(node) = self.parts[part].proof.nodes.get(k) else {
            return Err(JoinError::Format(format!(
                "{}: node {k} is missing",
                self.parts[part].name
            )));
        };
        let name = self.parts[part].name.clone();
        let (index, new) = self.node(&node.position, node.threshold, node.holds, &name)?;
        if !new {
            return Ok(index);
        }
        for (mv, c) in node.children.clone() {
            let child = self.part_node(part, c)?;
            self.nodes[index].children.push((mv, child));
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::{check, CHECK_LEAF_EMPTIES};
    use crate::{Options, Prover};
    use engine::search::Solver;
    use std::sync::atomic::AtomicBool;

    /// FFO #1 (14 empties, +18).
    fn ffo1() -> Position {
        engine::Obf::parse("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;")
            .unwrap()
            .position
    }

    fn prover() -> Prover {
        Prover::new(Options {
            leaf_empties: 8,
            table_mb: 4,
            leaf_table_mb: 4,
            ..Options::default()
        })
    }

    /// Each job proved alone, as another process would.
    fn parts(split: &Split) -> Vec<Part> {
        let never = AtomicBool::new(false);
        split
            .jobs
            .iter()
            .enumerate()
            .map(|(job, &n)| {
                let node = &split.nodes[n];
                let position = engine::Obf::parse(&node.position).unwrap().position;
                let proof = prover().proof(&position, node.threshold, &never).unwrap();
                Part {
                    name: format!("job-{job}"),
                    proof: proof.to_file(),
                }
            })
            .collect()
    }

    /// Both answers of FFO #1 (at 18 it holds, at 20 not) split two plies down, joined,
    /// and checked from scratch; the root's answer is the one-process proof's.
    #[test]
    fn a_split_question_joins_into_a_proof_that_checks() {
        let solver = Solver::new(4);
        for (t, holds) in [(18, true), (20, false)] {
            let split = Split::new(&ffo1(), t, 2, |_| 0);
            split.validate().unwrap();
            assert!(split.jobs.len() > 10, "{} jobs", split.jobs.len());
            let parts = parts(&split);
            let joined = split.join(&parts).unwrap();
            let verified = check(&joined, &solver, CHECK_LEAF_EMPTIES).unwrap();
            assert_eq!((verified.threshold, verified.holds), (t, holds));
        }
    }

    /// A root that holds needs one child refuted: the other jobs are unnecessary once it
    /// is, and a join without them works; without a needed one it names the jobs missing.
    #[test]
    fn jobs_a_proved_sibling_makes_unnecessary_are_listed() {
        let split = Split::new(&ffo1(), 18, 1, |_| 0);
        let parts = parts(&split);
        let answers = split.answers(&parts).unwrap();
        let (&refuting, _) = answers.iter().find(|(_, &(holds, _))| !holds).unwrap();
        let done: HashMap<usize, bool> = [(refuting, false)].into();
        let status = split.status(&done);
        assert_eq!(status.holds, Some(true));
        assert_eq!(status.needed, Vec::<usize>::new());
        assert_eq!(status.unnecessary.len(), split.jobs.len() - 1);
        let one = vec![parts.into_iter().nth(refuting).unwrap()];
        assert!(split.join(&one).is_ok());
        let none: HashMap<usize, bool> = HashMap::new();
        let fresh = split.status(&none);
        assert_eq!(fresh.needed.len(), split.jobs.len());
        // Nothing answered: the eldest move's job alone starts; once it is answered
        // (without refuting: it holds), its brothers.
        assert_eq!(fresh.ready, [0]);
        let eldest_holds = answers[&0].0;
        let first = split.status(&[(0, eldest_holds)].into());
        if eldest_holds {
            let brothers: Vec<usize> = (1..split.jobs.len()).collect();
            assert_eq!((first.holds, first.ready), (None, brothers));
        } else {
            assert_eq!((first.holds, first.ready.len()), (Some(true), 0));
        }
        assert!(
            matches!(split.join(&[]), Err(JoinError::Missing(jobs)) if jobs.len() == split.jobs.len())
        );
    }

    /// A part for another question, the same job twice, two parts that disagree: refused.
    #[test]
    fn foreign_repeated_and_disagreeing_parts_are_refused() {
        let split = Split::new(&ffo1(), 18, 1, |_| 0);
        let mut parts = parts(&split);
        let mut foreign = Part {
            name: "foreign".into(),
            proof: parts[0].proof.clone(),
        };
        foreign.proof.nodes[0].threshold += 2;
        assert!(matches!(
            split.answers(&[foreign]),
            Err(JoinError::Foreign { .. })
        ));
        let again = Part {
            name: "again".into(),
            proof: parts[0].proof.clone(),
        };
        parts.push(again);
        assert!(matches!(
            split.join(&parts),
            Err(JoinError::Repeated { job: 0, .. })
        ));
        parts.pop();
        // A part that claims the opposite of its proof's answer: the join takes its word
        // for the root (so the tree above may be wrong) and the checker refuses it.
        let mut lying = parts;
        let flipped = !lying[0].proof.nodes[0].holds;
        lying[0].proof.nodes[0].holds = flipped;
        match split.join(&lying) {
            Ok(joined) => assert!(check(&joined, &Solver::new(4), CHECK_LEAF_EMPTIES).is_err()),
            Err(e) => assert!(matches!(e, JoinError::Disagree { .. }), "{e}"),
        }
    }
}
