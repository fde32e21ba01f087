//! Proofs of unsatisfiability from the embedded solver, and their check. varisat writes a
//! proof in its own format as it solves (each learnt clause with the clauses it follows
//! from); varisat's checker, a separate module, re-derives every step by unit propagation
//! from the formula's clauses and the steps before it, and accepts the proof only if it
//! reaches the empty clause.

use std::io::Read;

use varisat::checker::{Checker, ProofTranscriptProcessor, ProofTranscriptStep};
use varisat::ExtendFormula;

use crate::formula::Formula;

fn to_varisat(l: rustsat::types::Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(l.to_ipasir() as isize)
}

/// Solves `formula` with varisat writing a proof: the proof (varisat's format) if it is
/// unsatisfiable, `None` if it has a model.
pub fn refute(formula: &Formula) -> Option<Vec<u8>> {
    let mut proof = Vec::new();
    let unsat = {
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut proof, varisat::ProofFormat::Varisat);
        let mut clause = Vec::new();
        for c in formula.cnf.iter() {
            clause.clear();
            clause.extend(c.iter().map(|&l| to_varisat(l)));
            solver.add_clause(&clause);
        }
        let sat = solver
            .solve()
            .expect("varisat writing to memory does not fail");
        solver.close_proof().expect("a proof in memory closes");
        !sat
    };
    unsat.then_some(proof)
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
    }
}
