//! The SAT solvers the race runs, and the command line of each run.

/// What the race passes to Kissat named alone. Its failed-literal probing takes a large
/// share of its time on these questions (long chains of gates from step to step) and
/// rarely pays: without it the parts that hold the game are solved faster, the slowest
/// runs most (measured in results/reach.md).
pub const KISSAT_OPTIONS: &str = "--probe=false";

/// What the race passes to CaDiCaL named alone on the whole question, whose only answer
/// that counts is nearly always UNSAT (the parts find the games): its configuration for
/// unsatisfiable formulas, which on these questions proves UNSAT faster, the hard ones
/// most; and without congruence closure and sweeping, which here cost more than they save
/// (both measured in results/reach.md).
pub const CADICAL_WHOLE_OPTIONS: &str = "--unsat --congruence=false --sweep=false";

/// A SAT solver the race can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatSolver {
    /// The embedded varisat (always there; cannot be interrupted: a stopped run is left to
    /// finish on its thread).
    Varisat,
    /// An external DIMACS solver: program and arguments (the CNF file is appended); Kissat
    /// and CaDiCaL get `--seed=K` so that several runs differ, and named alone the race's
    /// options ([`KISSAT_OPTIONS`]; CaDiCaL on the whole question
    /// [`CADICAL_WHOLE_OPTIONS`]).
    Command {
        /// The command line.
        line: String,
        /// Whether it writes LRAT proofs (CaDiCaL 1.9 and later), asked once, when the
        /// solver is chosen.
        lrat: bool,
    },
}

impl SatSolver {
    /// Kissat and CaDiCaL where they are on the PATH (`scripts/install-solvers.sh`), else
    /// varisat.
    pub fn detect() -> Vec<SatSolver> {
        let on_path = |program: &str| {
            std::env::var_os("PATH").is_some_and(|paths| {
                std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
            })
        };
        let found: Vec<SatSolver> = ["kissat", "cadical"]
            .into_iter()
            .filter(|p| on_path(p))
            .map(SatSolver::external)
            .collect();
        if found.is_empty() {
            vec![SatSolver::Varisat]
        } else {
            found
        }
    }

    /// The external solver `line` (program and arguments).
    pub fn external(line: &str) -> SatSolver {
        SatSolver::Command {
            line: line.to_string(),
            lrat: satgen::solve::lrat_solver(line).is_ok(),
        }
    }

    /// Whether its UNSAT comes with a proof that satgen checks (varisat's own; LRAT).
    pub fn writes_proof(&self) -> bool {
        match self {
            SatSolver::Varisat => true,
            SatSolver::Command { lrat, .. } => *lrat,
        }
    }

    /// `varisat`, or the command as given.
    pub fn name(&self) -> String {
        match self {
            SatSolver::Varisat => "varisat".into(),
            SatSolver::Command { line, .. } => line.clone(),
        }
    }

    /// The command line of run `seed` (from 1), on the `whole` question or a part.
    pub(super) fn command(&self, seed: usize, whole: bool) -> Option<String> {
        match self {
            SatSolver::Varisat => None,
            SatSolver::Command { line: c, .. } => {
                let mut words = c.split_whitespace();
                let program = words.next().unwrap_or_default();
                let base = std::path::Path::new(program)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                // A command with options of its own runs with those alone.
                let alone = words.next().is_none();
                Some(match base {
                    "kissat" if alone => format!("{c} {KISSAT_OPTIONS} -q --seed={seed}"),
                    "cadical" if alone && whole => {
                        format!("{c} {CADICAL_WHOLE_OPTIONS} -q --seed={seed}")
                    }
                    "kissat" | "cadical" => format!("{c} -q --seed={seed}"),
                    _ => c.clone(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kissat_and_cadical_get_seeds_alone_the_race_options_others_run_as_given() {
        let kissat = SatSolver::external("/usr/local/bin/kissat");
        for whole in [false, true] {
            assert_eq!(
                kissat.command(3, whole).as_deref(),
                Some("/usr/local/bin/kissat --probe=false -q --seed=3")
            );
        }
        // Options of the user's own replace the race's.
        let kissat = SatSolver::external("kissat --probe=true");
        assert_eq!(
            kissat.command(2, false).as_deref(),
            Some("kissat --probe=true -q --seed=2")
        );
        // CaDiCaL's configuration for UNSAT on the whole question only.
        let cadical = SatSolver::external("cadical");
        assert_eq!(
            cadical.command(1, false).as_deref(),
            Some("cadical -q --seed=1")
        );
        assert_eq!(
            cadical.command(2, true).as_deref(),
            Some("cadical --unsat --congruence=false --sweep=false -q --seed=2")
        );
        let cadical = SatSolver::external("/opt/bin/cadical --sat");
        assert_eq!(
            cadical.command(1, true).as_deref(),
            Some("/opt/bin/cadical --sat -q --seed=1")
        );
        let other = SatSolver::external("minisat-wrapper --x");
        assert_eq!(
            other.command(2, true).as_deref(),
            Some("minisat-wrapper --x")
        );
        assert_eq!(SatSolver::Varisat.command(1, true), None);
        assert_eq!(SatSolver::Varisat.name(), "varisat");
    }
}
