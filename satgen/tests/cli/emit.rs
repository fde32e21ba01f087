//! `satgen emit` and `satgen decode`: encodings, files written whole, models decoded or refused.

use crate::common::*;

#[test]
fn wordops_encoding_is_chosen_and_named_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("w.cnf");
    let cnf_arg = cnf.to_str().unwrap();
    let args = ["--mobility", "6", "--plies", "3", "--encoding", "wordops"];
    let output = satgen(&[&["emit"][..], &args, &["-o", cnf_arg]].concat());
    assert!(output.status.success());
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(
        text.starts_with("c satgen encoding=wordops plies=3 mobility=6"),
        "{}",
        &text[..80]
    );
    let rays = satgen(&["emit", "--mobility", "6", "--plies", "3", "-o", cnf_arg]);
    assert!(rays.status.success());
    let rays_text = std::fs::read_to_string(&cnf).unwrap();
    assert!(rays_text.starts_with("c satgen encoding=rays"));
    assert_ne!(rays_text.len(), text.len());
    let output = satgen(&[&["solve"][..], &args, &["--json"]].concat());
    assert!(output.status.success());
    assert_eq!(json(&output)["result"], "SAT");
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

    // A model from a solver, written as a solver prints it.
    let mut model = solve_file(&cnf).expect("satisfiable");
    let model_path = dir.path().join("model.txt");
    let output = decode_with(&cnf, &model_path, &model);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(json(&output)["result"], "SAT");

    // Every variable false: no move at ply 0.
    model
        .iter_mut()
        .for_each(|v| *v = format!("-{}", v.trim_start_matches('-')));
    let output = decode_with(&cnf, &model_path, &model);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("model rejected"), "{err}");

    let output = decode_with(&cnf, &model_path, &["1".into(), "x".into()]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("model.txt:2:"), "{err}");
    assert_eq!(err.lines().count(), 1);

    // The model from standard input.
    let model_text = format!("s SATISFIABLE\nv {} 0\n", model.join(" "));
    let output = satgen_with_input(
        &["decode", cnf.to_str().unwrap(), "-"],
        model_text.as_bytes(),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "rejected as above: {output:?}"
    );

    // A solver that says UNSATISFIABLE (of a satisfiable CNF): its word, not a checked
    // answer, and the output says so.
    std::fs::write(&model_path, "s UNSATISFIABLE\n").unwrap();
    let args = [
        "decode",
        cnf.to_str().unwrap(),
        model_path.to_str().unwrap(),
    ];
    let output = satgen(&args);
    assert!(
        stdout_text(&output).starts_with("UNSAT (unchecked)\n"),
        "{output:?}"
    );
    let output = satgen(&[&args[..], &["--json"]].concat());
    assert_eq!(json(&output)["proof_checked"], false, "{output:?}");

    // A literal far beyond the CNF's variables: one line, no table grown to it.
    for huge in ["2000000000", "-9223372036854775808"] {
        let output = decode_with(&cnf, &model_path, &["1".into(), huge.into()]);
        assert_eq!(output.status.code(), Some(2), "{huge}: {output:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("model.txt:2:") && err.contains("beyond"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1);
    }
}

/// `emit --accounting` writes the flip accounting as DIMACS: UNSAT for a random board that
/// no game reaches, satisfiable for a position of a game.
#[test]
fn accounting_is_emitted_for_external_solvers() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("accounting.cnf");
    let cnf_text = cnf.to_str().unwrap();
    let refuted = "X----O---O--O----XXXOO-----XX-O-X--OOOX--OOXO-O--OXO-O-OXOXOXXO- X";
    let output = satgen(&["emit", "--target", refuted, "--accounting", "-o", cnf_text]);
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(
        text.starts_with("c satgen accounting target="),
        "{text:.80}"
    );
    assert_eq!(solve_file(&cnf), None);
    let played = "f5d6c3d3c4f4f6f3e6e7";
    let output = satgen(&["emit", "--target", played, "--accounting", "-o", cnf_text]);
    assert!(output.status.success(), "{output:?}");
    assert!(solve_file(&cnf).is_some());
}

/// `emit -o FILE` writes the file whole or not at all: a question that fails (a target
/// that is no position) leaves an earlier file as it was and no file where there was none,
/// and no temporary file behind.
#[test]
fn emit_writes_its_file_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.cnf");
    std::fs::write(&kept, "p cnf 1 1\n1 0\n").unwrap();
    let fresh = dir.path().join("fresh.cnf");
    for out in [&kept, &fresh] {
        let output = satgen(&["emit", "--target", "f5x9", "-o", out.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "p cnf 1 1\n1 0\n");
    assert!(!fresh.exists());
    let output = satgen(&["emit", "--target", "f5d6c3", "-o", fresh.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    assert!(std::fs::read_to_string(&fresh)
        .unwrap()
        .contains("\np cnf "));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}
