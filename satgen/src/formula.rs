//! A CNF under construction: rustsat's clause store and variable manager, with Tseitin
//! definitions (each gate's output is equivalent to its function, so a model fixes every
//! defined variable) and constant folding for the false literal.

use rustsat::encodings::am1::{self, Encode as _};
use rustsat::encodings::card::{BoundLower, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};

/// The literal every formula fixes to false: its first variable (so that constant words of
/// `wordops` can be made without a formula at hand).
pub const FALSE: Lit = Lit::positive(0);

/// Clauses being built, with their variables.
#[derive(Clone)]
pub struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// The variables handed out.
    pub vars: BasicVarManager,
    /// A literal fixed to false (its negation is a unit clause).
    pub f: Lit,
}

impl Default for Formula {
    fn default() -> Formula {
        Formula::new()
    }
}

impl Formula {
    /// No clause but the one fixing [`FALSE`].
    pub fn new() -> Formula {
        let mut vars = BasicVarManager::default();
        let f = vars.new_lit();
        assert_eq!(f, FALSE);
        let mut cnf = Cnf::new();
        cnf.add_unit(!f);
        Formula { cnf, vars, f }
    }

    /// A fresh literal.
    pub fn lit(&mut self) -> Lit {
        self.vars.new_lit()
    }

    /// `n` fresh literals with consecutive variable numbers.
    pub fn block(&mut self, n: usize) -> Vec<Lit> {
        (0..n).map(|_| self.vars.new_lit()).collect()
    }

    /// The literal fixed to `value`.
    pub fn constant(&self, value: bool) -> Lit {
        if value {
            !self.f
        } else {
            self.f
        }
    }

    fn is_false(&self, l: Lit) -> bool {
        l == self.f
    }

    fn is_true(&self, l: Lit) -> bool {
        l == !self.f
    }

    /// Adds the clause of `lits`.
    pub fn clause(&mut self, lits: &[Lit]) {
        self.cnf.add_clause(Clause::from(lits));
    }

    /// A clause with its constants folded: none where a literal is true.
    pub fn clause_folded(&mut self, lits: &[Lit]) {
        if lits.iter().any(|&l| self.is_true(l)) {
            return;
        }
        let lits: Vec<Lit> = lits
            .iter()
            .copied()
            .filter(|&l| !self.is_false(l))
            .collect();
        self.clause(&lits);
    }

    /// `out <-> AND(inputs)`.
    pub fn define_and(&mut self, out: Lit, inputs: &[Lit]) {
        let inputs: Vec<Lit> = inputs
            .iter()
            .copied()
            .filter(|&l| !self.is_true(l))
            .collect();
        for &l in &inputs {
            self.cnf.add_binary(!out, l);
        }
        let mut long: Vec<Lit> = inputs.iter().map(|&l| !l).collect();
        long.push(out);
        self.clause(&long);
    }

    /// `out <-> OR(inputs)`.
    pub fn define_or(&mut self, out: Lit, inputs: &[Lit]) {
        self.define_and(!out, &inputs.iter().map(|&l| !l).collect::<Vec<_>>());
    }

    /// A literal equivalent to AND(inputs) (folded when an input is constant).
    pub fn and(&mut self, inputs: &[Lit]) -> Lit {
        if inputs.iter().any(|&l| self.is_false(l)) {
            return self.f;
        }
        let inputs: Vec<Lit> = inputs
            .iter()
            .copied()
            .filter(|&l| !self.is_true(l))
            .collect();
        match inputs.as_slice() {
            [] => !self.f,
            [single] => *single,
            _ => {
                let out = self.lit();
                self.define_and(out, &inputs);
                out
            }
        }
    }

    /// A literal equivalent to OR(inputs).
    pub fn or(&mut self, inputs: &[Lit]) -> Lit {
        !self.and(&inputs.iter().map(|&l| !l).collect::<Vec<_>>())
    }

    /// At most one of `lits` (rustsat's ladder encoding).
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        let mut ladder: am1::Ladder = lits.iter().copied().collect();
        ladder
            .encode(&mut self.cnf, &mut self.vars)
            .expect("memory for the encoding");
    }

    /// `guard -> (at least `bound` of `lits`)` (rustsat's totalizer).
    pub fn at_least_if(&mut self, guard: Lit, lits: &[Lit], bound: usize) {
        if bound > lits.len() {
            self.cnf.add_unit(!guard);
            return;
        }
        let mut totalizer: Totalizer = lits.iter().copied().collect();
        totalizer
            .encode_lb(bound..=bound, &mut self.cnf, &mut self.vars)
            .expect("memory for the encoding");
        for l in totalizer.enforce_lb(bound).expect("encoded bound") {
            self.cnf.add_binary(!guard, l);
        }
    }

    /// Unary count of `lits` up to `cap`: entry `i - 1` is equivalent to "at least `i` of
    /// `lits` hold", for `i` in `1..=cap` (a sequential counter, each cell a Tseitin gate,
    /// so it is exact both ways).
    pub fn count_up_to(&mut self, lits: &[Lit], cap: usize) -> Vec<Lit> {
        let mut at_least = vec![self.f; cap];
        for &x in lits {
            let previous = at_least.clone();
            for i in 0..cap {
                let carried = if i == 0 {
                    x
                } else {
                    self.and(&[previous[i - 1], x])
                };
                at_least[i] = self.or(&[previous[i], carried]);
            }
        }
        at_least
    }

    /// Variables used.
    pub fn variables(&self) -> u32 {
        self.vars.n_used()
    }

    /// Clauses added.
    pub fn clauses(&self) -> usize {
        self.cnf.len()
    }
}
