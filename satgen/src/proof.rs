//! Proofs of unsatisfiability and their check, in the two formats satgen produces. varisat
//! (embedded) writes a proof in its own format as it solves (each learnt clause with the
//! clauses it follows from); varisat's checker, a separate module, re-derives every step by
//! unit propagation from the formula's clauses and the steps before it, and accepts the
//! proof only if it reaches the empty clause. CaDiCaL (external) writes LRAT, which
//! [`crate::lrat`] checks.

use std::io::{BufRead, BufReader, Read};

use varisat::checker::{Checker, ProofTranscriptProcessor, ProofTranscriptStep};

use crate::formula::Formula;
use crate::solve::to_varisat;

/// Solves `formula` with varisat writing a proof: a model (value per variable, index 0 =
/// variable 1) if it is satisfiable, else the proof (varisat's format).
pub fn solve(formula: &Formula) -> Result<Vec<bool>, Vec<u8>> {
    let mut proof = Vec::new();
    crate::solve::run_varisat(formula, Some(&mut proof)).ok_or(proof)
}

/// The proof that `formula` is unsatisfiable (varisat's format), or `None` if it has a
/// model.
pub fn refute(formula: &Formula) -> Option<Vec<u8>> {
    solve(formula).err()
}

/// Records whether the checked proof derived the empty clause.
#[derive(Default)]
struct Refuted(bool);

impl ProofTranscriptProcessor for Refuted {
    fn process_step(&mut self, step: &ProofTranscriptStep) -> Result<(), anyhow::Error> {
        if matches!(step, ProofTranscriptStep::Unsat) {
            self.0 = true;
        }
        Ok(())
    }
}

/// Checks a varisat proof against the clauses given to `load`: `Ok` only if every step
/// follows and the empty clause is derived; else what went wrong, with the step.
fn check_with(
    load: impl FnOnce(&mut Checker) -> Result<(), String>,
    proof: impl Read,
) -> Result<(), String> {
    let mut refuted = Refuted::default();
    {
        let mut checker = Checker::new();
        checker.add_transcript(&mut refuted);
        load(&mut checker)?;
        checker.check_proof(proof).map_err(|e| e.to_string())?;
    }
    if refuted.0 {
        Ok(())
    } else {
        Err("every step follows, but the proof never derives the empty clause".into())
    }
}

/// Checks a varisat proof of `formula`'s unsatisfiability.
pub fn check(formula: &Formula, proof: &[u8]) -> Result<(), String> {
    check_with(
        |checker| {
            let mut clause = Vec::new();
            for c in formula.cnf.iter() {
                clause.clear();
                clause.extend(c.iter().map(|&l| to_varisat(l)));
                checker.add_clause(&clause).map_err(|e| e.to_string())?;
            }
            Ok(())
        },
        proof,
    )
}

/// Checks a varisat proof against a DIMACS CNF.
pub fn check_dimacs(cnf: impl Read, proof: impl Read) -> Result<(), String> {
    check_with(
        |checker| {
            checker
                .add_dimacs_cnf(cnf)
                .map_err(|e| format!("the CNF: {e}"))
        },
        proof,
    )
}

/// The proof formats satgen checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// varisat's own (the embedded solver's).
    Varisat,
    /// LRAT, text or binary (CaDiCaL 1.9 and later with `--lrat`).
    Lrat,
}

impl Format {
    /// Told apart by the first byte: varisat's step codes are numbers below 32, binary
    /// LRAT begins with a step letter (`a`, `d`), text LRAT with a digit or a comment.
    pub fn detect(first: u8) -> Format {
        if first < 32 && !first.is_ascii_whitespace() {
            Format::Varisat
        } else {
            Format::Lrat
        }
    }
}

/// Checks the proof file against the CNF file (either format): the format, or the first
/// step that fails.
pub fn check_files(cnf: &std::path::Path, proof: &std::path::Path) -> Result<Format, String> {
    let open = |path: &std::path::Path| {
        std::fs::File::open(path)
            .map(BufReader::new)
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    check_any(open(cnf)?, open(proof)?)
}

/// Checks a proof in either format against a DIMACS CNF: the format, or the first step
/// that fails.
pub fn check_any(cnf: impl Read, proof: impl Read) -> Result<Format, String> {
    let mut proof = BufReader::new(proof);
    let first = proof
        .fill_buf()
        .map_err(|e| e.to_string())?
        .first()
        .copied();
    match first.map(Format::detect) {
        None => Err("the proof is empty".into()),
        Some(Format::Varisat) => check_dimacs(cnf, proof).map(|()| Format::Varisat),
        Some(Format::Lrat) => crate::lrat::check(cnf, proof).map(|_| Format::Lrat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pigeonhole formula: `n + 1` pigeons, `n` holes.
    fn pigeons(n: usize) -> Formula {
        let mut f = Formula::new();
        let sits: Vec<Vec<_>> = (0..=n).map(|_| f.block(n)).collect();
        for pigeon in &sits {
            f.clause(pigeon);
        }
        for hole in 0..n {
            let in_hole: Vec<_> = sits.iter().map(|pigeon| pigeon[hole]).collect();
            for (a, &x) in in_hole.iter().enumerate() {
                for &y in &in_hole[a + 1..] {
                    f.clause(&[!x, !y]);
                }
            }
        }
        f
    }

    #[test]
    fn proofs_check_and_tampered_ones_fail() {
        let formula = pigeons(5);
        let proof = refute(&formula).expect("6 pigeons do not fit 5 holes");
        assert_eq!(check(&formula, &proof), Ok(()));
        // Cut short: the empty clause is never reached.
        assert!(check(&formula, &proof[..proof.len() / 2]).is_err());
        // A proof for another formula: 7 pigeons in 6 holes.
        let other = refute(&pigeons(6)).unwrap();
        assert!(check(&formula, &other).is_err());
        // The formula weakened (a clause dropped): the proof no longer follows.
        let mut weaker = Formula::new();
        let kept: Vec<_> = formula.cnf.iter().skip(2).cloned().collect();
        for c in kept {
            weaker.cnf.add_clause(c);
        }
        weaker.vars = formula.vars.clone();
        assert!(check(&weaker, &proof).is_err());
        // Satisfiable: no proof.
        assert_eq!(refute(&Formula::new()), None);
        // Told apart from LRAT by content.
        let mut cnf = Vec::new();
        crate::dimacs::write_clauses(&mut cnf, &formula, &[]).unwrap();
        assert_eq!(check_any(&cnf[..], &proof[..]), Ok(Format::Varisat));
        assert!(check_any(&cnf[..], &b"1 0 1 0\n"[..])
            .unwrap_err()
            .contains("line 1"));
        assert!(check_any(&cnf[..], &b""[..]).is_err());
    }
}
