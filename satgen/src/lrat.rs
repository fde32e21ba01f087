//! An LRAT proof checker: the certificate of an external solver's UNSAT (CaDiCaL from
//! 1.9 on writes LRAT with `--lrat`). LRAT is DRAT with hints: each added clause names the
//! clauses that, in that order, become unit (or empty) once the new clause's literals are
//! all false, so checking a step is one pass over its hints, no search, and the whole
//! proof checks in time linear in its size (DRAT checkers must rediscover those hints by
//! propagation, which costs tens of times the solve).
//!
//! Accepted: the text form (`ID LIT... 0 HINT... 0`, `ID d ID... 0`, `c` comments) and the
//! binary form (`a`/`d` then LEB128 numbers, a signed number `x` written as `2|x| + (x<0)`).
//! The clauses of the CNF are numbered from 1 in file order. Every hint must be positive
//! (a resolution step, RUP): solvers that write LRAT produce no RAT steps for formulas
//! without extension variables, and a negative hint is rejected, never trusted. A proof is
//! accepted only if an empty clause is added and checked.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufRead, BufReader, Read};

/// Why a proof is not accepted.
#[derive(Debug, thiserror::Error)]
pub enum LratError {
    /// The CNF does not parse.
    #[error("the CNF: {0}")]
    Cnf(String),
    /// The proof or the CNF could not be read.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A step is not written in either LRAT form.
    #[error("{at}: {problem}")]
    Malformed {
        /// Where the step begins ("line 3", "byte 120").
        at: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A step is read but does not follow.
    #[error("{at}: {rejection}")]
    Rejected {
        /// Where the step begins.
        at: String,
        /// Why it does not follow.
        rejection: Rejection,
    },
    /// Every step follows, but none is the empty clause.
    #[error("every step follows, but the proof never derives the empty clause")]
    NoEmptyClause,
}

/// Why a step of a proof does not follow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// A clause id is used a second time.
    #[error("clause {0} is added twice")]
    AddedTwice(u64),
    /// A clause deleted that the database does not hold.
    #[error("deletes clause {0}, which is not in the database")]
    DeletesUnknown(u64),
    /// In the steps adding `clause`: a negative hint (this checker accepts no RAT).
    #[error("clause {clause}: hint {hint} is a RAT step, which this checker does not accept")]
    Rat {
        /// The clause added.
        clause: u64,
        /// The hint.
        hint: i64,
    },
    /// A hint names a clause not in the database.
    #[error("clause {clause}: hint {hint} names no clause in the database")]
    UnknownHint {
        /// The clause added.
        clause: u64,
        /// The hint.
        hint: u64,
    },
    /// A hint's clause has two literals not false.
    #[error("clause {clause}: hint {hint} is not unit (two literals not false)")]
    NotUnit {
        /// The clause added.
        clause: u64,
        /// The hint.
        hint: u64,
    },
    /// The hints are used up before a conflict.
    #[error("clause {0}: the hints end without a conflict")]
    NoConflict(u64),
}

/// What a checked proof contained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Clauses of the CNF.
    pub inputs: u64,
    /// Clauses the proof added (each checked), the empty one included.
    pub additions: u64,
    /// Clauses it deleted.
    pub deletions: u64,
    /// Hints followed in all.
    pub hints: u64,
}

/// Clause ids are dense integers: a multiplicative hash spreads them at no cost.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 ids are hashed")
    }
    fn write_u64(&mut self, id: u64) {
        self.0 = id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The clause database and the partial assignment of one step.
struct Checker {
    clauses: HashMap<u64, Box<[i32]>, BuildHasherDefault<IdHasher>>,
    /// Per variable: 1 true, -1 false, 0 unassigned.
    values: Vec<i8>,
    trail: Vec<usize>,
    summary: Summary,
}

impl Checker {
    fn value(&self, lit: i32) -> i8 {
        let v = self
            .values
            .get(lit.unsigned_abs() as usize)
            .copied()
            .unwrap_or(0);
        if lit < 0 {
            -v
        } else {
            v
        }
    }

    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        if var >= self.values.len() {
            self.values.resize(var + 1, 0);
        }
        self.values[var] = if lit < 0 { -1 } else { 1 };
        self.trail.push(var);
    }

    fn insert(&mut self, id: u64, lits: &[i32]) -> Result<(), Rejection> {
        if self.clauses.insert(id, lits.into()).is_some() {
            return Err(Rejection::AddedTwice(id));
        }
        Ok(())
    }

    /// Checks that clause `id`, `lits`, follows by unit propagation along `hints` (RUP).
    fn implied(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), Rejection> {
        let result = self.propagate(id, lits, hints);
        for &var in &self.trail {
            self.values[var] = 0;
        }
        self.trail.clear();
        result
    }

    fn propagate(&mut self, clause: u64, lits: &[i32], hints: &[i64]) -> Result<(), Rejection> {
        for &lit in lits {
            match self.value(lit) {
                // The clause holds both a literal and its negation: implied by anything.
                1 => return Ok(()),
                -1 => {}
                _ => self.assign(-lit),
            }
        }
        for &hint in hints {
            if hint < 0 {
                return Err(Rejection::Rat { clause, hint });
            }
            let id = hint as u64;
            self.summary.hints += 1;
            let hinted = self
                .clauses
                .get(&id)
                .ok_or(Rejection::UnknownHint { clause, hint: id })?;
            // The literals not false: none is a conflict, one is implied. (One that is
            // already true adds nothing, as in the reference checker lrat-check.)
            let mut unit = None;
            for &lit in hinted.iter() {
                match self.value(lit) {
                    -1 => {}
                    _ if unit.is_some_and(|u| u != lit) => {
                        return Err(Rejection::NotUnit { clause, hint: id })
                    }
                    _ => unit = Some(lit),
                }
            }
            match unit {
                None => return Ok(()),
                Some(lit) => {
                    // A clause of the database may repeat a literal: assign it once.
                    if self.value(lit) == 0 {
                        self.assign(lit);
                    }
                }
            }
        }
        Err(Rejection::NoConflict(clause))
    }
}

/// One step of a proof, as either form reads it.
enum Step {
    Add {
        id: u64,
        lits: Vec<i32>,
        hints: Vec<i64>,
    },
    Delete(Vec<u64>),
}

/// A reader of steps: `where_` says where the last step began (line or byte).
trait Steps {
    fn next_step(&mut self) -> Result<Option<Step>, LratError>;
    fn where_(&self) -> String;

    /// The error of a step that is not written as the form requires.
    fn malformed(&self, problem: &str) -> LratError {
        LratError::Malformed {
            at: self.where_(),
            problem: problem.into(),
        }
    }

    /// The error of a literal [`literal`] refuses.
    fn out_of_range(&self, x: i64) -> LratError {
        self.malformed(&format!("literal {x} is out of range"))
    }
}

struct TextSteps<R> {
    input: R,
    line: String,
    number: u64,
}

impl<R: BufRead> Steps for TextSteps<R> {
    fn next_step(&mut self) -> Result<Option<Step>, LratError> {
        loop {
            self.line.clear();
            if self.input.read_line(&mut self.line)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            let mut words = self.line.split_ascii_whitespace().peekable();
            let Some(first) = words.next() else { continue };
            if first.starts_with('c') {
                continue;
            }
            let number = |w: &str| -> Result<i64, LratError> {
                w.parse()
                    .map_err(|_| self.malformed(&format!("{w:?} is not a number")))
            };
            let id = number(first)?;
            if id <= 0 {
                return Err(self.malformed(&format!("clause id {id} is not positive")));
            }
            if words.peek() == Some(&"d") {
                words.next();
                let mut ids = Vec::new();
                for w in words {
                    match number(w)? {
                        0 => return Ok(Some(Step::Delete(ids))),
                        x if x > 0 => ids.push(x as u64),
                        x => return Err(self.malformed(&format!("deletion of clause id {x}"))),
                    }
                }
                return Err(self.malformed("the deletion does not end with 0"));
            }
            let mut lits = Vec::new();
            let mut hints = Vec::new();
            let mut in_hints = false;
            for w in words {
                let x = number(w)?;
                match (x, in_hints) {
                    (0, false) => in_hints = true,
                    (0, true) => {
                        return Ok(Some(Step::Add {
                            id: id as u64,
                            lits,
                            hints,
                        }))
                    }
                    (x, false) => lits.push(literal(x).ok_or_else(|| self.out_of_range(x))?),
                    (x, true) => hints.push(x),
                }
            }
            return Err(self.malformed("the step does not end with two 0s"));
        }
    }

    fn where_(&self) -> String {
        format!("line {}", self.number)
    }
}

/// The literal `x`, if a DIMACS literal (an `i32` whose negation is one too).
fn literal(x: i64) -> Option<i32> {
    i32::try_from(x).ok().filter(|l| *l != i32::MIN)
}

struct BinarySteps<R> {
    input: R,
    offset: u64,
    start: u64,
}

impl<R: BufRead> BinarySteps<R> {
    fn byte(&mut self) -> Result<Option<u8>, LratError> {
        let buffer = self.input.fill_buf()?;
        let Some(&b) = buffer.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        self.offset += 1;
        Ok(Some(b))
    }

    fn unsigned(&mut self) -> Result<u64, LratError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self
                .byte()?
                .ok_or_else(|| self.malformed("the proof ends inside a number"))?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.malformed("a number longer than 64 bits"))
    }

    fn signed(&mut self) -> Result<i64, LratError> {
        let x = self.unsigned()?;
        let magnitude = (x >> 1) as i64;
        Ok(if x & 1 == 1 { -magnitude } else { magnitude })
    }
}

impl<R: BufRead> Steps for BinarySteps<R> {
    fn next_step(&mut self) -> Result<Option<Step>, LratError> {
        self.start = self.offset;
        match self.byte()? {
            None => Ok(None),
            Some(b'a') => {
                let id = self.signed()?;
                if id <= 0 {
                    return Err(self.malformed(&format!("clause id {id} is not positive")));
                }
                let mut lits = Vec::new();
                loop {
                    match self.signed()? {
                        0 => break,
                        x => lits.push(literal(x).ok_or_else(|| self.out_of_range(x))?),
                    }
                }
                let mut hints = Vec::new();
                loop {
                    match self.signed()? {
                        0 => break,
                        x => hints.push(x),
                    }
                }
                Ok(Some(Step::Add {
                    id: id as u64,
                    lits,
                    hints,
                }))
            }
            Some(b'd') => {
                let mut ids = Vec::new();
                loop {
                    match self.signed()? {
                        0 => return Ok(Some(Step::Delete(ids))),
                        x if x > 0 => ids.push(x as u64),
                        x => return Err(self.malformed(&format!("deletion of clause id {x}"))),
                    }
                }
            }
            Some(b) => Err(self.malformed(&format!("byte {b:#04x} begins no step (a or d)"))),
        }
    }

    fn where_(&self) -> String {
        format!("byte {}", self.start)
    }
}

/// Checks an LRAT proof (text or binary, told apart by its first byte) of the DIMACS
/// CNF's unsatisfiability: `Ok` only if every step follows and the empty clause is
/// derived; else the first step that fails and why.
pub fn check(cnf: impl Read, proof: impl Read) -> Result<Summary, LratError> {
    let formula =
        varisat::dimacs::DimacsParser::parse(cnf).map_err(|e| LratError::Cnf(e.to_string()))?;
    let mut checker = Checker {
        clauses: HashMap::default(),
        values: Vec::new(),
        trail: Vec::new(),
        summary: Summary::default(),
    };
    for (i, clause) in formula.iter().enumerate() {
        let lits: Vec<i32> = clause.iter().map(|l| l.to_dimacs() as i32).collect();
        checker
            .insert(i as u64 + 1, &lits)
            .map_err(|rejection| LratError::Rejected {
                at: format!("clause {} of the CNF", i + 1),
                rejection,
            })?;
    }
    checker.summary.inputs = formula.len() as u64;
    let mut proof = BufReader::new(proof);
    let binary = matches!(proof.fill_buf()?.first(), Some(b'a' | b'd'));
    let mut steps: Box<dyn Steps> = if binary {
        Box::new(BinarySteps {
            input: proof,
            offset: 0,
            start: 0,
        })
    } else {
        Box::new(TextSteps {
            input: proof,
            line: String::new(),
            number: 0,
        })
    };
    loop {
        let result = match steps.next_step()? {
            None => return Err(LratError::NoEmptyClause),
            Some(Step::Delete(ids)) => {
                checker.summary.deletions += ids.len() as u64;
                ids.iter().try_for_each(|&id| {
                    checker
                        .clauses
                        .remove(&id)
                        .map(drop)
                        .ok_or(Rejection::DeletesUnknown(id))
                })
            }
            Some(Step::Add { id, lits, hints }) => {
                checker.summary.additions += 1;
                let result = checker
                    .implied(id, &lits, &hints)
                    .and_then(|()| checker.insert(id, &lits));
                if result.is_ok() && lits.is_empty() {
                    return Ok(checker.summary);
                }
                result
            }
        };
        result.map_err(|rejection| LratError::Rejected {
            at: steps.where_(),
            rejection,
        })?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (a or b), (a or not b), (not a or b), (not a or not b).
    const CNF: &str = "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n";
    /// Learns `a` from clauses 1 and 2, then the empty clause from 5, 3 and 4.
    const PROOF: &str = "5 1 0 1 2 0\n2 d 1 2 0\n6 0 5 3 4 0\n";

    fn run(proof: &str) -> Result<Summary, LratError> {
        check(CNF.as_bytes(), proof.as_bytes())
    }

    /// Why the text proof is refused, as the error says it.
    fn refusal(proof: &str) -> String {
        run(proof).unwrap_err().to_string()
    }

    /// The same steps in the binary form.
    fn binary(text: &str) -> Vec<u8> {
        fn number(out: &mut Vec<u8>, x: i64) {
            let mut u = 2 * x.unsigned_abs() + u64::from(x < 0);
            while u >= 0x80 {
                out.push((u as u8 & 0x7f) | 0x80);
                u >>= 7;
            }
            out.push(u as u8);
        }
        let mut out = Vec::new();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[1] == "d" {
                out.push(b'd');
                words[2..]
                    .iter()
                    .for_each(|w| number(&mut out, w.parse().unwrap()));
            } else {
                out.push(b'a');
                words
                    .iter()
                    .for_each(|w| number(&mut out, w.parse().unwrap()));
            }
        }
        out
    }

    #[test]
    fn text_and_binary_proofs_check() {
        let summary = run(PROOF).unwrap();
        assert_eq!(
            summary,
            Summary {
                inputs: 4,
                additions: 2,
                deletions: 2,
                hints: 5
            }
        );
        assert_eq!(check(CNF.as_bytes(), &binary(PROOF)[..]).unwrap(), summary);
        assert!(run(&format!("c a comment\n{PROOF}")).is_ok());
        // A hint whose one literal not false is already true adds nothing, harmlessly.
        assert!(run("5 1 0 1 1 2 0\n6 0 5 3 4 0\n").is_ok());
    }

    #[test]
    fn bad_proofs_fail_at_their_step() {
        // Cut short: no empty clause.
        assert!(refusal("5 1 0 1 2 0\n").contains("never derives"));
        assert!(matches!(
            run("5 1 0 1 2 0\n"),
            Err(LratError::NoEmptyClause)
        ));
        // A hint dropped: the propagation stops short.
        assert!(matches!(
            run("5 1 0 1 0\n6 0 5 3 4 0\n"),
            Err(LratError::Rejected {
                rejection: Rejection::NoConflict(5),
                ..
            })
        ));
        assert_eq!(
            refusal("5 1 0 1 0\n6 0 5 3 4 0\n"),
            "line 1: clause 5: the hints end without a conflict"
        );
        // A lemma altered: `b` does not follow from clauses 1 and 2.
        assert_eq!(
            refusal("5 2 0 1 2 0\n6 0 5 3 4 0\n"),
            "line 1: clause 5: hint 2 is not unit (two literals not false)"
        );
        // A hint that leaves two literals open.
        assert!(refusal("5 0 1 2 0\n").contains("not unit"));
        // A deleted clause used afterwards.
        assert!(refusal("5 1 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n")
            .contains("line 3: clause 6: hint 3 names no clause"));
        // RAT hints are refused.
        assert!(refusal("5 1 0 -1 2 0\n").contains("RAT"));
        // The proof against another CNF: clause 4 missing.
        let three = "p cnf 2 3\n1 2 0\n1 -2 0\n-1 2 0\n";
        assert!(check(three.as_bytes(), PROOF.as_bytes()).is_err());
        // Malformed: the binary form names its byte.
        let mut bytes = binary(PROOF);
        bytes.truncate(bytes.len() - 1);
        assert!(check(CNF.as_bytes(), &bytes[..])
            .unwrap_err()
            .to_string()
            .contains("ends inside a number"));
        assert!(refusal("5 1 0 1 2\n").contains("two 0s"));
        assert!(refusal("5 x 0\n").contains("not a number"));
        assert!(matches!(run("5 x 0\n"), Err(LratError::Malformed { .. })));
    }
}
