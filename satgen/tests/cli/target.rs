//! Target questions (`--target`) through emit, decode, solve and cubes.

use crate::common::*;

/// A reachability question: emitted with its target in the header, solved outside (here
/// varisat on the file), decoded to a game the core replays to the target; a model with
/// its moves swapped is rejected; `solve --target` answers SAT, and UNSAT for the start
/// with white to move; `cubes --target` writes one cube per first move.
#[test]
fn target_questions_emit_decode_solve_and_split() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("t.cnf");
    let moves = "f5d6c3d3c4f4f6f3e3d2";
    let output = satgen(&["emit", "--target", moves, "-o", cnf.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.starts_with("c satgen target="), "{}", &text[..80]);
    let model = solve_file(&cnf).expect("reachable");
    let model_path = dir.path().join("model.txt");
    let output = decode_with(&cnf, &model_path, &model);
    assert!(output.status.success(), "{output:?}");
    let answer = json(&output);
    assert_eq!(answer["result"], "SAT");
    let target = engine::Game::replay(engine::Position::START, moves).unwrap();
    let found =
        engine::Game::replay(engine::Position::START, answer["moves"].as_str().unwrap()).unwrap();
    assert_eq!(found.last(), target.last());

    // The first two steps' moves swapped: another game, which the core refuses or which
    // ends elsewhere.
    let layout = satgen::dimacs::read_target_layout(&text).unwrap().unwrap();
    let mut values: std::collections::HashMap<usize, bool> = model
        .iter()
        .map(|l| {
            let v: i64 = l.parse().unwrap();
            (v.unsigned_abs() as usize, v > 0)
        })
        .collect();
    for step in &layout.moves[..2] {
        for (_, lit) in step {
            let var = lit.var().idx() + 1;
            values.insert(var, !values[&var]);
        }
    }
    let swapped: Vec<String> = (1..=values.len())
        .map(|v| {
            if values[&v] {
                format!("{v}")
            } else {
                format!("-{v}")
            }
        })
        .collect();
    let output = decode_with(&cnf, &model_path, &swapped);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("model rejected"));

    let output = satgen(&["solve", "--target", moves, "--json"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json(&output)["result"], "SAT");
    let white_start = "---------------------------OX------XO--------------------------- O";
    let output = satgen(&["solve", "--target", white_start, "--json"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json(&output)["result"], "UNSAT");

    let cubes = dir.path().join("cubes");
    let output = satgen(&["cubes", "--target", moves, "-o", cubes.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let manifest = std::fs::read_to_string(cubes.join("manifest.txt")).unwrap();
    // The target holds d3, c4 and f5 of the four first moves, not e6.
    let firsts: Vec<&str> = manifest
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(firsts, ["first_move=d3", "first_move=c4", "first_move=f5"]);
    let sat: Vec<bool> = manifest
        .lines()
        .map(|l| solve_file(&cubes.join(l.split_whitespace().nth(2).unwrap())).is_some())
        .collect();
    assert!(sat.contains(&true));
}
