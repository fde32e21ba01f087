//! The embedded solver: varisat on the formula's clauses.

use varisat::ExtendFormula;

use crate::formula::Formula;

/// A model (value per variable, index 0 = variable 1) or `None` if unsatisfiable.
pub fn varisat(formula: &Formula) -> Option<Vec<bool>> {
    let mut solver = varisat::Solver::new();
    let mut clause = Vec::new();
    for c in formula.cnf.iter() {
        clause.clear();
        clause.extend(
            c.iter()
                .map(|l| varisat::Lit::from_dimacs(l.to_ipasir() as isize)),
        );
        solver.add_clause(&clause);
    }
    if !solver
        .solve()
        .expect("varisat without proof output does not fail")
    {
        return None;
    }
    let mut values = vec![false; formula.variables() as usize];
    for l in solver.model().expect("a model after SAT") {
        if let Some(v) = values.get_mut(l.var().index()) {
            *v = l.is_positive();
        }
    }
    Some(values)
}
