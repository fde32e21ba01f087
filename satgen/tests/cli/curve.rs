//! `satgen curve` and `curve-plot`: rows resumed and plotted, known games, ceilings.

use std::path::Path;

use crate::common::*;

/// `curve` on the first plies (varisat): one row per ply with the maximum brute force
/// gives, a witness replayed by the core, a proof of one more when asked; `--done` skips
/// what a run already settled; `curve-plot` draws the rows and refuses two that disagree.
#[test]
fn curve_rows_resume_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let output = satgen(&[
        "curve",
        "--from",
        "0",
        "--to",
        "4",
        "--json",
        "--proof",
        &path("proofs"),
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout_text(&output);
    std::fs::write(path("curve.jsonl"), &text).unwrap();
    let mut rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    rows.sort_by_key(|r| r["ply"].as_u64());
    assert_eq!(rows.len(), 5);
    for (ply, row) in rows.iter().enumerate() {
        let most = engine::reference::max_mobility(&engine::Board::START, ply as u32);
        // At exactly `ply` plies the maximum may be lower than within them.
        let max = row["max"].as_u64().unwrap() as u32;
        assert!(max <= most, "{row}");
        let game = engine::Game::replay(engine::Position::START, row["witness"].as_str().unwrap())
            .unwrap();
        assert_eq!((game.moves.len(), game.last().board.mobility()), (ply, max));
        let last = row["questions"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            (&last["result"], &last["mobility"]),
            (&"UNSAT".into(), &(max + 1).into())
        );
        let proof = last["proof"].as_str().unwrap();
        let cnf = Path::new(proof).with_extension("cnf");
        assert!(satgen(&["check-proof", cnf.to_str().unwrap(), proof])
            .status
            .success());
        assert_eq!(
            (&row["proof_checked"], &last["proof_checked"]),
            (&true.into(), &true.into())
        );
    }
    // Without --proof, the UNSAT above each maximum is the solver's word, and says so.
    let unchecked = satgen(&["curve", "--from", "3", "--to", "3", "--json"]);
    let row: serde_json::Value = serde_json::from_slice(&unchecked.stdout).unwrap();
    assert_eq!(row["proof_checked"], false, "{row}");
    let unchecked = satgen(&["curve", "--from", "3", "--to", "3"]);
    assert!(
        stdout_text(&unchecked).contains("(UNSAT unchecked)"),
        "{unchecked:?}"
    );
    // Everything settled: a resumed run has nothing left to do.
    let again = satgen(&[
        "curve",
        "--from",
        "0",
        "--to",
        "4",
        "--json",
        "--done",
        &path("curve.jsonl"),
    ]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(stdout_text(&again), "");
    let plot = satgen(&["curve-plot", &path("curve.jsonl"), "-o", &path("curve.svg")]);
    assert!(plot.status.success(), "{plot:?}");
    // Where each ply stands: its maximum, the witness and the row it came from.
    let table = stdout_text(&plot);
    for row in &rows {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&row["ply"].to_string()))
            .unwrap_or_else(|| panic!("ply {} in {table}", row["ply"]));
        let max = row["max"].to_string();
        let witness = row["witness"].as_str().unwrap();
        assert_eq!(line.split_whitespace().nth(2), Some(max.as_str()), "{line}");
        assert!(
            line.contains(witness) && line.contains("curve.jsonl:"),
            "{line}"
        );
    }
    assert!(std::fs::read_to_string(path("curve.svg"))
        .unwrap()
        .contains("<svg"));
    // A second file that disagrees on ply 3.
    let wrong = text
        .lines()
        .find(|l| l.contains("\"ply\":3,"))
        .unwrap()
        .replacen(&format!("\"max\":{}", rows[3]["max"]), "\"max\":99", 1);
    std::fs::write(path("wrong.jsonl"), wrong).unwrap();
    let plot = satgen(&[
        "curve-plot",
        &path("curve.jsonl"),
        &path("wrong.jsonl"),
        "-o",
        &path("curve.svg"),
    ]);
    assert_eq!(plot.status.code(), Some(1), "{plot:?}");
}

/// `curve --witnesses`: a known game starts its ply's climb (the first question asks one
/// move more than it reaches; the row says whether its witness is still the given game),
/// whether the file lists games or holds rows of `curve --json` / `retro maxmob --json`
/// (their witnesses); a file with a move that is not legal, or a row without a witness, is
/// refused with its file and line, exit 2.
#[test]
fn curve_starts_from_known_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // f5d6c3d3c4 leaves white 8 moves; the most after 5 plies is more.
    std::fs::write(path("known.txt"), "% a comment\nknown; f5d6c3d3c4f4\n").unwrap();
    std::fs::write(
        path("known.jsonl"),
        "{\"ply\":5,\"lower\":8,\"witness\":\"f5d6c3d3c4\"}\n",
    )
    .unwrap();
    for file in ["known.txt", "known.jsonl"] {
        let output = satgen(&[
            "curve",
            "--from",
            "5",
            "--to",
            "5",
            "--json",
            "--witnesses",
            &path(file),
        ]);
        assert!(output.status.success(), "{output:?}");
        let row: serde_json::Value = serde_json::from_str(stdout_text(&output).trim()).unwrap();
        let given = engine::Game::replay(engine::Position::START, "f5d6c3d3c4").unwrap();
        let reached = given.last().board.mobility() as u64;
        assert_eq!(row["questions"][0]["mobility"].as_u64(), Some(reached + 1));
        let most = engine::reference::max_mobility(&engine::Board::START, 5) as u64;
        assert!(row["max"].as_u64().unwrap() <= most);
        // The witness is the given one unless the solver found a better game.
        let witness_given = row["witness_given"].as_bool().unwrap();
        assert_eq!(witness_given, row["max"].as_u64() == Some(reached));
    }
    std::fs::write(path("bad.txt"), "% header\nbad; f5d6a1\n").unwrap();
    std::fs::write(
        path("bad.jsonl"),
        "{\"ply\":5,\"witness\":\"f5d6c3d3c4\"}\n{\"ply\":5}\n",
    )
    .unwrap();
    for file in ["bad.txt", "bad.jsonl"] {
        let bad = satgen(&[
            "curve",
            "--from",
            "5",
            "--to",
            "5",
            "--witnesses",
            &path(file),
        ]);
        assert_eq!(bad.status.code(), Some(2), "{bad:?}");
        let message = String::from_utf8_lossy(&bad.stderr);
        assert!(message.contains(&format!("{file}:2:")), "{message}");
        assert_eq!(message.trim().lines().count(), 1, "{message}");
    }
}

/// `curve --ceiling N`: one question per ply, N moves; its UNSAT bounds the point (and
/// settles it where the known witness reaches N - 1); `--done` then skips the plies
/// bounded at N or below, and the plot draws the bounds. With `--bisect` the questions
/// halve the gap between witness and bound until the point is settled, and a resumed
/// bisection starts below the rows' bound.
#[test]
fn curve_ceiling_bounds_each_ply_with_one_question() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let most = |ply| engine::reference::max_mobility(&engine::Board::START, ply) as u64;
    // d3c5d6e3f4 reaches the most after 5 plies; nothing is known at ply 4.
    std::fs::write(
        path("known.txt"),
        "best; d3c5d6e3f4
",
    )
    .unwrap();
    let ceiling = (most(5) + 1).to_string();
    let args = [
        "curve",
        "--from",
        "4",
        "--to",
        "5",
        "--json",
        "--ceiling",
        &ceiling,
        "--witnesses",
        &path("known.txt"),
    ];
    let output = satgen(&args);
    assert!(output.status.success(), "{output:?}");
    let text = stdout_text(&output);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let ply = row["ply"].as_u64().unwrap();
        assert_eq!(row["questions"].as_array().unwrap().len(), 1, "{row}");
        assert_eq!(row["impossible"].as_u64(), Some(most(5) + 1), "{row}");
        if ply == 5 {
            assert_eq!(row["max"].as_u64(), Some(most(5)), "{row}");
        } else {
            // At ply 4 the ceiling is far above the most (9), and no game is known.
            assert!(most(4) + 1 < most(5) + 1);
            assert!(row["max"].is_null(), "{row}");
        }
    }
    std::fs::write(path("rows.jsonl"), &text).unwrap();
    let rows_file = path("rows.jsonl");
    let mut resumed = args.to_vec();
    resumed.extend(["--done", &rows_file]);
    let again = satgen(&resumed);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(stdout_text(&again).trim(), "");
    let plot = satgen(&["curve-plot", &path("rows.jsonl"), "-o", &path("c.svg")]);
    assert!(plot.status.success(), "{plot:?}");
    let table = stdout_text(&plot);
    assert!(table.contains(&format!("..{}", most(5))), "{table}");
    // --bisect: the ceiling, then the middle of what is neither witnessed nor refuted.
    let ceiling = (most(5) + 6).to_string();
    let bisection = satgen(&[
        "curve",
        "--from",
        "5",
        "--to",
        "5",
        "--json",
        "--ceiling",
        &ceiling,
        "--bisect",
    ]);
    assert!(bisection.status.success(), "{bisection:?}");
    let row: serde_json::Value = serde_json::from_str(stdout_text(&bisection).trim()).unwrap();
    let asked: Vec<(u64, &str)> = row["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["mobility"].as_u64().unwrap(),
                q["result"].as_str().unwrap(),
            )
        })
        .collect();
    let m = most(5);
    assert_eq!(asked[..2], [(m + 6, "UNSAT"), ((m + 5).div_ceil(2), "SAT")]);
    assert_eq!(row["max"].as_u64(), Some(m));
    // A bisection resumed with --done starts below the rows' bound: ply 4 is bounded at
    // most(5) + 1 by the first run (ply 5 is settled), and its witness is the first 4
    // moves of the known game.
    let mut resumed = args.to_vec();
    resumed.extend(["--bisect", "--done", &rows_file]);
    let bisection = satgen(&resumed);
    assert!(bisection.status.success(), "{bisection:?}");
    let row: serde_json::Value = serde_json::from_str(stdout_text(&bisection).trim()).unwrap();
    assert_eq!(row["ply"].as_u64(), Some(4));
    let witness = engine::Game::replay(engine::Position::START, "d3c5d6e3").unwrap();
    let reached = witness.last().board.mobility() as u64;
    assert_eq!(
        row["questions"][0]["mobility"].as_u64(),
        Some((reached + 1 + most(5)).div_ceil(2))
    );
    assert_eq!(row["max"].as_u64(), Some(most(4)));
}
