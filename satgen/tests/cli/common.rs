//! What the tests of every command share: running the binary, reading its output.

use std::path::Path;
use std::process::{Command, Output};

pub(crate) fn satgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_satgen"))
        .args(args)
        .output()
        .expect("satgen runs")
}

/// `satgen ARGS` with `input` on its standard input.
pub(crate) fn satgen_with_input(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_satgen"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("satgen runs");
    // A command that refuses its arguments reads none of it (a broken pipe here).
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

pub(crate) fn stdout_text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Runs `satgen cubes ARGS -o out` and returns the manifest.
pub(crate) fn cubes(out: &Path, args: &[&str]) -> String {
    let mut all = vec!["cubes", "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = satgen(&all);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    std::fs::read_to_string(out.join("manifest.txt")).unwrap()
}

/// Solves a DIMACS file with varisat directly, as an external solver would: the model's
/// literals, or `None` if unsatisfiable.
pub(crate) fn solve_file(cnf: &Path) -> Option<Vec<String>> {
    use varisat::ExtendFormula;
    let text = std::fs::read_to_string(cnf).unwrap();
    let mut solver = varisat::Solver::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
    {
        let lits: Vec<varisat::Lit> = line
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .filter(|&v: &isize| v != 0)
            .map(varisat::Lit::from_dimacs)
            .collect();
        solver.add_clause(&lits);
    }
    solver.solve().unwrap().then(|| {
        solver
            .model()
            .unwrap()
            .iter()
            .map(|l| l.to_dimacs().to_string())
            .collect()
    })
}

/// Writes `model` as solver output (`s`/`v` lines) to `path` and runs `satgen decode --json`.
pub(crate) fn decode_with(cnf: &Path, path: &Path, model: &[String]) -> Output {
    std::fs::write(path, format!("s SATISFIABLE\nv {} 0\n", model.join(" "))).unwrap();
    satgen(&[
        "decode",
        cnf.to_str().unwrap(),
        path.to_str().unwrap(),
        "--json",
    ])
}
