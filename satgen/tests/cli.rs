//! The `satgen` binary as a user runs it: solve, emit + decode round trip, rejected models.

use std::process::{Command, Output};

fn satgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_satgen"))
        .args(args)
        .output()
        .expect("satgen runs")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[test]
fn solve_sat_and_unsat_in_json() {
    // Small ply counts: the library tests hold the SAT/UNSAT boundary to brute force.
    let output = satgen(&["solve", "--mobility", "6", "--plies", "3", "--json"]);
    assert!(output.status.success());
    let answer = json(&output);
    assert_eq!(answer["result"], "SAT");
    let moves = answer["moves"].as_str().unwrap();
    let game = engine::Game::replay(engine::Position::START, moves).unwrap();
    assert!(game.last().board.mobility() >= 6);
    assert_eq!(
        answer["mobility"].as_u64().unwrap(),
        game.last().board.mobility() as u64
    );
    for key in ["ply", "variables", "clauses", "seconds"] {
        assert!(answer.get(key).is_some(), "{key}");
    }
    let output = satgen(&["solve", "--mobility", "30", "--plies", "3", "--json"]);
    assert!(output.status.success());
    assert_eq!(json(&output)["result"], "UNSAT");
}

#[test]
fn emitted_cnf_decodes_and_bad_models_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("q.cnf");
    let output = satgen(&[
        "emit",
        "--mobility",
        "5",
        "--plies",
        "2",
        "-o",
        cnf.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.starts_with("c satgen encoding=rays plies=2 mobility=5"));
    assert!(text.contains("\np cnf "));

    // A model from the embedded solver, written as a solver would.
    let clauses: Vec<Vec<isize>> = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .map(|l| {
            l.split_whitespace()
                .map(|w| w.parse().unwrap())
                .filter(|&v| v != 0)
                .collect()
        })
        .collect();
    let mut solver = external_model(&clauses);
    let model_path = dir.path().join("model.txt");
    std::fs::write(
        &model_path,
        format!("s SATISFIABLE\nv {} 0\n", solver.join(" ")),
    )
    .unwrap();
    let output = satgen(&[
        "decode",
        cnf.to_str().unwrap(),
        model_path.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(json(&output)["result"], "SAT");

    // Every variable false: no move at ply 0.
    solver
        .iter_mut()
        .for_each(|v| *v = format!("-{}", v.trim_start_matches('-')));
    std::fs::write(
        &model_path,
        format!("s SATISFIABLE\nv {} 0\n", solver.join(" ")),
    )
    .unwrap();
    let output = satgen(&[
        "decode",
        cnf.to_str().unwrap(),
        model_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("model rejected"), "{err}");

    std::fs::write(&model_path, "s SATISFIABLE\nv 1 x 0\n").unwrap();
    let output = satgen(&[
        "decode",
        cnf.to_str().unwrap(),
        model_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("model.txt:2:"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

/// Solves the DIMACS clauses with varisat directly, as an external solver would, and
/// returns the model's literals.
fn external_model(clauses: &[Vec<isize>]) -> Vec<String> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    for c in clauses {
        let lits: Vec<varisat::Lit> = c.iter().map(|&v| varisat::Lit::from_dimacs(v)).collect();
        solver.add_clause(&lits);
    }
    assert!(solver.solve().unwrap());
    solver
        .model()
        .unwrap()
        .iter()
        .map(|l| l.to_dimacs().to_string())
        .collect()
}

#[test]
fn bad_arguments_are_one_line_and_exit_2() {
    for args in [
        vec!["solve", "--mobility", "65"],
        vec!["solve", "--mobility", "5", "--plies", "0"],
        vec!["decode", "/no/such.cnf", "/no/such.model"],
    ] {
        let output = satgen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn cubes_split_the_question_and_decode_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cubes");
    let output = satgen(&[
        "cubes",
        "--mobility",
        "7",
        "--plies",
        "4",
        "--depth",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).unwrap();
    let lines: Vec<&str> = manifest.lines().collect();
    assert_eq!(lines.len(), 3, "{manifest}");
    let mut sat = 0;
    for line in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, moves, file] = fields[..] else {
            panic!("{line}")
        };
        assert!(moves.starts_with("f5"));
        let cnf = out.join(file);
        let text = std::fs::read_to_string(&cnf).unwrap();
        let clauses: Vec<Vec<isize>> = text
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .map(|l| {
                l.split_whitespace()
                    .map(|w| w.parse().unwrap())
                    .filter(|&v| v != 0)
                    .collect()
            })
            .collect();
        let Some(model) = try_model(&clauses) else {
            continue;
        };
        sat += 1;
        let model_path = dir.path().join("model.txt");
        std::fs::write(
            &model_path,
            format!("s SATISFIABLE\nv {} 0\n", model.join(" ")),
        )
        .unwrap();
        let output = satgen(&[
            "decode",
            cnf.to_str().unwrap(),
            model_path.to_str().unwrap(),
            "--json",
        ]);
        assert!(output.status.success());
        let answer = json(&output);
        assert!(
            answer["moves"].as_str().unwrap().starts_with(moves),
            "{answer}"
        );
    }
    // The whole question is SAT, so some cube is.
    assert_eq!(
        json(&satgen(&[
            "solve",
            "--mobility",
            "7",
            "--plies",
            "4",
            "--json"
        ]))["result"],
        "SAT"
    );
    assert!(sat >= 1);
}

fn try_model(clauses: &[Vec<isize>]) -> Option<Vec<String>> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    for c in clauses {
        let lits: Vec<varisat::Lit> = c.iter().map(|&v| varisat::Lit::from_dimacs(v)).collect();
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
