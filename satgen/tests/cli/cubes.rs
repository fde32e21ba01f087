//! `satgen cubes`: the question split, each part decoded.

use std::path::Path;

use crate::common::*;

#[test]
fn cubes_split_the_question_and_decode_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cubes");
    let manifest = cubes(&out, &["--mobility", "7", "--plies", "4", "--depth", "2"]);
    let lines: Vec<&str> = manifest.lines().collect();
    assert_eq!(lines.len(), 3, "{manifest}");
    // Into the same directory again: refused (exit 2), the earlier cubes untouched.
    let again = satgen(&[
        "cubes",
        "-o",
        out.to_str().unwrap(),
        "--mobility",
        "7",
        "--plies",
        "3",
        "--by-ply",
    ]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("earlier cubes"));
    assert_eq!(
        std::fs::read_to_string(out.join("manifest.txt")).unwrap(),
        manifest
    );
    let mut sat = 0;
    for line in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, moves, file, proof] = fields[..] else {
            panic!("{line}")
        };
        assert!(moves.starts_with("f5"));
        assert_eq!(Path::new(proof), Path::new(file).with_extension("lrat"));
        let Some(answer) = solve_and_decode(&out.join(file), dir.path()) else {
            continue;
        };
        sat += 1;
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

/// Cubes by ply: one per ply, the last ply with N empty squares first; together they
/// answer as the whole question does, on both sides of the true maximum.
#[test]
fn cubes_by_ply_answer_as_the_whole_question() {
    let plies = 5;
    let most = engine::reference::max_mobility(&engine::Board::START, plies);
    for (mobility, sat) in [(most, true), (most + 1, false)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("cubes");
        let (m, p) = (mobility.to_string(), plies.to_string());
        let manifest = cubes(&out, &["--mobility", &m, "--plies", &p, "--by-ply"]);
        let labels: Vec<&str> = manifest
            .lines()
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(
            labels,
            ["ply=5", "ply=4", "ply=3", "ply=2", "ply=1", "ply=0"]
        );
        let mut solved = 0;
        for line in manifest.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let Some(answer) = solve_and_decode(&out.join(fields[2]), dir.path()) else {
                continue;
            };
            solved += 1;
            let game =
                engine::Game::replay(engine::Position::START, answer["moves"].as_str().unwrap())
                    .unwrap();
            assert!(game.last().board.mobility() >= mobility);
            assert!(answer["ply"].as_u64().unwrap() <= fields[1][4..].parse().unwrap());
        }
        assert_eq!(solved > 0, sat, "mobility {mobility}: {solved} cubes SAT");
    }
}

/// A cube file solved by varisat directly and its model decoded by `satgen decode`: the
/// answer, or `None` if the cube is UNSAT.
fn solve_and_decode(cnf: &Path, dir: &Path) -> Option<serde_json::Value> {
    let model = solve_file(cnf)?;
    let output = decode_with(cnf, &dir.join("model.txt"), &model);
    assert!(output.status.success());
    Some(json(&output))
}
