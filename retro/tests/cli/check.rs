//! `retro reach` and `retro check`: witnesses, refutations, SAT with checked proofs, limits, reruns.

use std::process::Command;

use crate::common::*;

/// The JSON Lines of `rows`, each summary sealed again over the rows before it as they now
/// are: what a run that gave these answers would have written.
fn reseal(rows: &[serde_json::Value]) -> String {
    use engine::seal;
    let mut digest = seal::RowDigest::default();
    let mut lines = Vec::new();
    for row in rows {
        let mut row = row.clone();
        if row["summary"] == true {
            let object = row.as_object_mut().unwrap();
            std::mem::take(&mut digest).write_into(object);
            seal::seal(object);
        } else {
            digest.add(&row);
        }
        lines.push(row.to_string());
    }
    lines.join("\n")
}

#[test]
fn reach_answers_with_a_witness_or_no() {
    let output = retro(&[
        "reach",
        "--board",
        "f5d6c3d3c4f4",
        "--frontier-discs",
        "6",
        "--json",
    ]);
    assert!(output.status.success());
    let row = &json_lines(&output)[0];
    assert_eq!(row["reachable"], true);
    let witness = row["witness"].as_str().unwrap();
    let reached = engine::Game::replay(engine::Position::START, witness).unwrap();
    let given = engine::Game::replay(engine::Position::START, "f5d6c3d3c4f4").unwrap();
    assert_eq!(reached.last(), given.last());
    for key in ["nodes", "seconds"] {
        assert!(row.get(key).is_some(), "{key}");
    }

    // The start position with white to move.
    let white_start = "---------------------------OX------XO--------------------------- O";
    let output = retro(&["reach", "--board", white_start, "--frontier-discs", "6"]);
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("UNREACHABLE"));
}

#[test]
fn check_a_csv_of_candidates() {
    let dir = std::env::temp_dir().join(format!("retro-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("c.csv");
    std::fs::write(&csv, "player,opponent\n0x0000341c10261000,0x006a4a620a406e00\n0x0008640a38240000,0x00760250465a5200\n").unwrap();
    let output = retro(&[
        "check",
        csv.to_str().unwrap(),
        "--frontier-discs",
        "8",
        "--json",
    ]);
    assert!(output.status.success());
    let rows = json_lines(&output);
    assert_eq!(rows.len(), 3);
    assert!(rows[..2]
        .iter()
        .all(|r| r["reachable"] == false && r["witness"].is_null()));
    assert_eq!(rows[2]["unreachable"], 2);

    std::fs::write(&csv, "player,opponent\n0x1,0x2\n0x1;0x2\n").unwrap();
    let output = retro(&["check", csv.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("c.csv:3:1:"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `retro reach` on `board` by SAT alone (`solver`; the backward search given no nodes).
fn reach_by_sat<'a>(board: &'a str, solver: &'a str) -> Vec<&'a str> {
    let sat_only = ["--quick-nodes", "0", "--backward-nodes", "0"];
    let args = [
        "reach",
        "--board",
        board,
        "--frontier-discs",
        "8",
        "--sat-solver",
        solver,
    ];
    [&args[..], &sat_only].concat()
}

/// A position of a random game (20 discs), decided by SAT alone (varisat, the backward
/// search given no nodes, the whole question first): every JSON field, and a witness that
/// replays to it.
#[test]
fn reach_by_sat_in_json() {
    let position = retro::sample::random_game_positions(20, 1, 4)[0];
    let obf = engine::Obf::new(position).to_string();
    let output = retro(
        &[
            &reach_by_sat(&obf, "varisat")[..],
            &["--json", "--whole-first"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let row = &json_lines(&output)[0];
    assert_eq!(row["reachable"], true);
    assert_eq!(row["method"], "sat");
    assert!(row["solver"].as_str().unwrap().starts_with("varisat"));
    for key in ["certificate", "nodes", "seconds"] {
        assert!(row.get(key).is_some(), "{key}");
    }
    let game = engine::Game::replay(engine::Position::START, row["witness"].as_str().unwrap());
    assert_eq!(*game.unwrap().last(), position);
}

/// The position after the first game (in move order) whose first pass falls after 8
/// moves, the earliest, and 6 moves more (the first legal each time; none passes): every
/// game reaching it passes an odd number of times.
fn early_pass_position() -> engine::Position {
    use engine::{Bitboard, Move, Position};
    fn walk(position: Position, played: usize) -> Option<Position> {
        let moves = position.board.moves();
        if played == satgen::target::FIRST_PASS_STEP {
            return (moves == 0 && position.board.pass().moves() != 0)
                .then(|| position.play(Move::Pass).unwrap());
        }
        Bitboard(moves).find_map(|sq| walk(position.play(Move::Play(sq)).unwrap(), played + 1))
    }
    let mut position = walk(Position::START, 0).expect("a first pass after 8 moves");
    for _ in 0..6 {
        let sq = Bitboard(position.board.moves()).next().expect("a move");
        position = position.play(Move::Play(sq)).unwrap();
    }
    assert!(!satgen::target::no_passes_possible(&position));
    position
}

/// Where the side to move needs an odd number of passes, a single worker opening with the
/// whole question first takes the early single-pass parts: the game, its pass after 8
/// moves, comes from the first of them.
#[test]
fn an_early_pass_is_found_by_its_own_part() {
    let position = early_pass_position();
    let obf = engine::Obf::new(position).to_string();
    let output = retro(
        &[
            &reach_by_sat(&obf, "varisat")[..],
            &["--json", "--whole-first", "--threads", "1"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let row = &json_lines(&output)[0];
    assert_eq!(row["reachable"], true);
    assert_eq!(row["solver"], "varisat (one pass, before move 9)");
    let witness = row["witness"].as_str().unwrap();
    assert_eq!(&witness[16..18], "ps", "{witness}");
    let game = engine::Game::replay(engine::Position::START, witness);
    assert_eq!(*game.unwrap().last(), position);
}

/// A file with a reachable position, a refuted one and one left undecided by its time
/// limit: three answers, each saying how it was shown, and the totals.
#[test]
fn check_reports_method_certificate_and_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    let deep = retro::sample::random_game_positions(56, 1, 2)[0];
    let lines = [
        "---------------------------OX------XO--------------------------- X".to_string(),
        "---------------------------XO------OX--------------------------- X".to_string(),
        engine::Obf::new(deep).to_string(),
    ];
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let mut rows = check_with_varisat(&file, "0.5", &[]);
    let summary = rows.pop().unwrap();
    rows.sort_by_key(|r| r["index"].as_u64());
    assert_eq!(rows[0]["reachable"], true);
    assert_eq!(rows[0]["witness"], "");
    assert_eq!(rows[1]["reachable"], false);
    assert_eq!(rows[1]["method"], "refutation");
    assert!(rows[1]["certificate"]
        .as_str()
        .unwrap()
        .contains("never have flipped"));
    assert!(rows[2]["reachable"].is_null());
    assert_eq!(rows[2]["certificate"], "time limit");
    // A row left UNKNOWN says how much processor time its race had: some, though on a
    // loaded machine less than its half second of wall time. The rows' times are parts
    // of the run's.
    let cpu = |row: &serde_json::Value| row["cpu_seconds"].as_f64().unwrap();
    assert!(cpu(&rows[2]) > 0.0, "{}", rows[2]);
    let rows_cpu: f64 = rows.iter().map(cpu).sum();
    assert!(rows_cpu <= cpu(&summary) + 0.01, "{rows_cpu} {summary}");
    assert_eq!(
        (
            &summary["reachable"],
            &summary["unreachable"],
            &summary["unknown"]
        ),
        (&1.into(), &1.into(), &1.into())
    );
}

/// A SAT solver that cannot be run: one line naming it, exit 2 (not a run that retries it
/// for ever).
#[test]
fn a_missing_solver_is_one_line_and_exit_2() {
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(reach_by_sat(&obf, "/no/such/solver"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("retro still runs after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("cannot run \"/no/such/solver\""), "{err}");
}

/// `--cpu-limit` counts what a solver spends while it runs: a stand-in solver that spins
/// is stopped after a second of it, long before the wall clock's limit, and the row says
/// which limit it was and shows that second; `--done` asks it again only with a larger
/// limit. A solver that waits spends nothing, and the wall clock stops it.
#[test]
fn the_processor_time_limit_counts_a_running_solver() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    std::fs::write(&file, engine::Obf::new(position).to_string() + "\n").unwrap();
    let spin = dir.path().join("spin.sh");
    std::fs::write(&spin, "while :; do :; done\n").unwrap();
    let wait = dir.path().join("wait.sh");
    std::fs::write(&wait, "sleep 100; true\n").unwrap();
    let check = |solver: &std::path::Path, cpu_limit: &str, done: &[&str]| {
        let solver = format!("sh {}", solver.display());
        let mut args = vec![
            "check",
            file.to_str().unwrap(),
            "--frontier-discs",
            "8",
            "--quick-nodes",
            "0",
            "--backward-nodes",
            "0",
            "--threads",
            "1",
            "--sat-solver",
            &solver,
            "--trust-unsat",
            "--cpu-limit",
            cpu_limit,
            "--time-limit",
            "8",
            "--json",
        ];
        args.extend(done);
        let output = retro(&args);
        assert!(output.status.success(), "{output:?}");
        let mut rows = json_lines(&output);
        rows.pop();
        rows
    };
    let rows = check(&spin, "1", &[]);
    let row = &rows[0];
    assert!(row["reachable"].is_null(), "{row}");
    assert_eq!(row["certificate"], "processor time limit", "{row}");
    assert_eq!(row["cpu_limit"], 1.0, "{row}");
    let (seconds, cpu) = (
        row["seconds"].as_f64().unwrap(),
        row["cpu_seconds"].as_f64().unwrap(),
    );
    assert!(cpu >= 1.0 && seconds < 8.0, "{row}");
    // `--done` does not ask again what this limit already left UNKNOWN, but a larger
    // one does.
    let first = dir.path().join("first.jsonl");
    std::fs::write(&first, row.to_string()).unwrap();
    let done = ["--done", first.to_str().unwrap()];
    assert_eq!(check(&spin, "1", &done).len(), 0);
    let rows = check(&spin, "1.5", &done);
    assert_eq!(rows[0]["cpu_limit"], 1.5, "{rows:?}");
    let rows = check(&wait, "1", &[]);
    let row = &rows[0];
    assert_eq!(row["certificate"], "time limit", "{row}");
    assert!(row["cpu_limit"].is_null(), "{row}");
    assert!(row["seconds"].as_f64().unwrap() >= 8.0, "{row}");
}

/// `sample --random-boards` writes a file `check` reads: one row per board, and the
/// placement-order rule refutes many of them without search.
#[test]
fn random_boards_are_checked_and_most_refuted_cheaply() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.obf");
    let sample = retro(&["sample", "--random-boards", "--count", "200", "--seed", "3"]);
    assert!(sample.status.success(), "{sample:?}");
    std::fs::write(&file, &sample.stdout).unwrap();
    let proofs = dir.path().join("proofs");
    let mut rows = check_with_varisat(
        &file,
        "0.05",
        &["--quick-nodes", "1", "--proof", proofs.to_str().unwrap()],
    );
    let summary = rows.pop().unwrap();
    assert_eq!(summary["positions"], 200);
    // Each accounting answer's proof is on disk and checks against its CNF.
    for row in rows.iter().filter(|r| r["method"] == "accounting") {
        assert_eq!(row["proof_checked"], true, "{row}");
        let proof = std::path::PathBuf::from(row["proofs"][0].as_str().unwrap());
        let cnf = proof.with_extension("cnf");
        let open = |p: &std::path::Path| std::fs::File::open(p).unwrap();
        satgen::proof::check_dimacs(open(&cnf), open(&proof)).unwrap();
    }
    // What the cheap rules pass, the flip accounting mostly refutes (14 of 17 here).
    let by_accounting = rows.iter().filter(|r| r["method"] == "accounting").count();
    assert!(
        by_accounting >= 7,
        "{by_accounting} of 200 refuted by the flip accounting"
    );
    let by_order = rows
        .iter()
        .filter(|r| {
            r["certificate"]
                .as_str()
                .is_some_and(|c| c.contains("no order of play"))
        })
        .count();
    assert!(
        by_order >= 50,
        "{by_order} of 200 refuted by placement order"
    );
}

/// `check --passes odd` and `--passes even` split a file by whether some game without
/// passes can end at a position with its side to move, keeping the file's row numbers:
/// together every position once, each on its side, merging as shards do. CSV input,
/// whose lines ask both sides to move, is refused.
#[test]
fn check_passes_splits_the_file_by_parity() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.obf");
    let sample = retro(&["sample", "--random-boards", "--count", "40", "--seed", "5"]);
    std::fs::write(&file, &sample.stdout).unwrap();
    let positions = engine::input::read_positions(&file, None).unwrap();
    let mut seen = Vec::new();
    let mut parts = Vec::new();
    for (passes, odd) in [("odd", true), ("even", false)] {
        let rows = check_with_varisat(&file, "0.05", &["--quick-nodes", "1", "--passes", passes]);
        let summary = rows.last().unwrap();
        assert_eq!(
            summary["positions"].as_u64().unwrap() as usize,
            rows.len() - 1
        );
        for row in &rows[..rows.len() - 1] {
            let index = row["index"].as_u64().unwrap() as usize;
            let position = positions[index - 1].1.position;
            assert_eq!(!satgen::target::no_passes_possible(&position), odd, "{row}");
            seen.push(index);
        }
        let path = dir.path().join(format!("{passes}.jsonl"));
        let text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        std::fs::write(&path, text.join("\n")).unwrap();
        parts.push(path.to_str().unwrap().to_string());
        assert!(rows.len() > 1, "no {passes} board among 40");
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=40).collect::<Vec<usize>>());
    let output = merge(&["--json"], &parts);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json_lines(&output).last().unwrap()["positions"], 40);
    let csv = dir.path().join("c.csv");
    std::fs::write(&csv, "0x0000000810000000,0x0000001008000000\n").unwrap();
    let output = retro(&["check", csv.to_str().unwrap(), "--passes", "odd"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("--passes") && err.contains("c.csv"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `check --done` decides only what earlier results left undecided, under the file's own
/// numbers; `merge` puts each new answer over the UNKNOWN row it replaces, in either order;
/// answers that disagree, and results of another file, are one-line errors.
#[test]
fn done_reruns_the_unknown_and_merge_puts_the_answers_over_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.obf");
    let games = retro(&["sample", "--discs", "20", "--count", "3", "--seed", "1"]);
    let boards = retro(&["sample", "--random-boards", "--count", "12", "--seed", "4"]);
    std::fs::write(&file, [games.stdout, boards.stdout].concat()).unwrap();
    // Rows changed by hand sealed again: what a run that gave those answers writes.
    let write = |name: &str, rows: &[serde_json::Value]| {
        let path = dir.path().join(name);
        std::fs::write(&path, reseal(rows)).unwrap();
        path.to_str().unwrap().to_string()
    };
    let whole = check_with_varisat(&file, "30", &[]);
    assert_eq!(whole.last().unwrap()["unknown"], 0, "{whole:?}");
    // A first run that left the three games and the last board undecided, and whose
    // "no" for board 14 is a solver's word (`--trust-unsat`, or an older run's row).
    let unknown = [1, 2, 3, 14, 15];
    let first: Vec<serde_json::Value> = whole
        .iter()
        .map(|row| {
            let mut row = row.clone();
            match row["index"].as_u64() {
                Some(14) => {
                    assert_eq!(row["reachable"], false, "{row}");
                    row["method"] = "sat".into();
                    row["proof_checked"] = false.into();
                }
                Some(i) if unknown.contains(&i) => {
                    row["reachable"] = serde_json::Value::Null;
                    row["method"] = serde_json::Value::Null;
                    row["witness"] = serde_json::Value::Null;
                }
                _ => {}
            }
            row
        })
        .collect();
    let output = retro(&[
        "merge",
        "--json",
        "--estimate",
        &write("unchecked.jsonl", &first),
    ]);
    let summary = json_lines(&output).pop().unwrap();
    assert_eq!(
        (&summary["unknown"], &summary["unchecked"]),
        (&4.into(), &1.into())
    );
    assert_eq!(summary["estimate"]["unknown"], 5, "{summary}");
    let first_path = write("first.jsonl", &first);
    let again = check_with_varisat(&file, "30", &["--done", &first_path]);
    let mut rerun: Vec<u64> = again
        .iter()
        .filter(|r| r["summary"] != true)
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    rerun.sort_unstable();
    assert_eq!(rerun, unknown);
    assert_eq!(again.last().unwrap()["unknown"], 0, "{again:?}");
    let again_path = write("again.jsonl", &again);
    for parts in [[&first_path, &again_path], [&again_path, &first_path]] {
        let output = retro(&["merge", "--json", parts[0], parts[1]]);
        assert!(output.status.success(), "{output:?}");
        let mut merged = json_lines(&output);
        let summary = merged.pop().unwrap();
        assert_eq!(summary["positions"], 15);
        for key in ["reachable", "unreachable", "unknown"] {
            assert_eq!(summary[key], whole.last().unwrap()[key], "{key}");
        }
        let answers = |rows: &[serde_json::Value]| {
            let mut answers: Vec<(u64, Option<bool>)> = rows
                .iter()
                .filter(|r| r["summary"] != true)
                .map(|r| (r["index"].as_u64().unwrap(), r["reachable"].as_bool()))
                .collect();
            answers.sort_unstable();
            answers
        };
        assert_eq!(answers(&merged), answers(&whole));
    }
    // Nothing left: a third run decides nothing.
    let third = check_with_varisat(&file, "30", &["--done", &first_path, &again_path]);
    assert_eq!(third.len(), 1, "{third:?}");
    // A rerun that contradicts an answer.
    let mut flipped = again.clone();
    flipped[0]["reachable"] = serde_json::Value::Bool(flipped[0]["reachable"] != true);
    let flipped_path = write("flipped.jsonl", &flipped);
    let output = retro(&["merge", &again_path, &flipped_path]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "{flipped_path}:1: position {}",
            flipped[0]["index"]
        )) && err.contains("but"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Results of a longer file.
    let mut longer = first.clone();
    longer[0]["index"] = serde_json::json!(16);
    let longer_path = write("longer.jsonl", &longer);
    let output = retro(&["check", file.to_str().unwrap(), "--done", &longer_path]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains(&format!("{longer_path}:1: position 16")) && err.contains("15 positions"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A shell script `name` in `dir` with `body`, made executable: a stand-in solver. Its
/// path.
fn stand_in(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    path.to_str().unwrap().to_string()
}

/// A stand-in solver of `version` that answers UNSAT to every question, with a false LRAT
/// proof where it is asked for one.
fn unsat_with_a_false_proof(version: &str) -> String {
    format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo {version}; exit 0; }}\n\
         for a; do last=$a; done\n\
         case $last in *.lrat) echo '9999999 0 1 0' > \"$last\" ;; esac\n\
         echo 's UNSATISFIABLE'\n"
    )
}

/// Stand-ins for Kissat (no proof) and CaDiCaL (LRAT, here a false one) that answer UNSAT
/// to every question, on a reachable position: with `--trust-unsat` Kissat's word is
/// taken and the certificate says it has no proof; by default and with `--proof DIR` it
/// is not taken (varisat asks the whole question instead), and the false LRAT proof is
/// never taken: UNKNOWN at the time limit, never UNREACHABLE.
#[test]
fn unsat_without_a_checked_proof_is_not_taken() {
    let dir = tempfile::tempdir().unwrap();
    let kissat = stand_in(dir.path(), "kissat", &unsat_with_a_false_proof("4.0.4"));
    let cadical = stand_in(dir.path(), "cadical", &unsat_with_a_false_proof("2.2.1"));
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let proofs = dir.path().join("proofs");
    let run = |solver: &str, extra: &[&str]| {
        let limit = ["--time-limit", "2", "--json"];
        let output = retro(&[&reach_by_sat(&obf, solver)[..], &limit, extra].concat());
        assert!(output.status.success(), "{output:?}");
        json_lines(&output).remove(0)
    };
    let row = run(&kissat, &["--trust-unsat"]);
    assert_eq!(row["reachable"], false);
    assert_eq!(row["proof_checked"], false);
    assert!(row["certificate"]
        .as_str()
        .unwrap()
        .contains("writes no proof"));
    let with_proofs = ["--proof", proofs.to_str().unwrap()];
    for solver in [&kissat, &cadical] {
        for extra in [&[][..], &with_proofs] {
            let row = run(solver, extra);
            assert_ne!(row["reachable"], false, "{solver} {extra:?}: {row}");
            assert_eq!(row["proofs"], serde_json::json!([]));
        }
    }
}

/// A solver without a proof (Kissat) searches the whole question for games too (only it
/// holds a game with a pass in the middle), but its UNSAT is no answer: stand-ins for
/// Kissat, which notes each question it is asked and answers UNSAT, and CaDiCaL, whose
/// LRAT proof is false. Kissat is asked the whole question once (its later seeds skip
/// it), and the answer waits for a proof: UNKNOWN at the time limit.
#[test]
fn solvers_without_proofs_search_the_whole_question_for_games() {
    let dir = tempfile::tempdir().unwrap();
    let asked = dir.path().join("asked");
    let kissat = stand_in(
        dir.path(),
        "kissat",
        &format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 4.0.4; exit 0; }}\n\
             for a; do last=$a; done\n\
             if grep -q '^c satgen-cube' \"$last\"; then echo part; else echo whole; fi >> {}\n\
             echo 's UNSATISFIABLE'\n",
            asked.display()
        ),
    );
    let cadical = stand_in(dir.path(), "cadical", &unsat_with_a_false_proof("2.2.1"));
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let output = retro(
        &[
            &reach_by_sat(&obf, &kissat)[..],
            &["--sat-solver", &cadical, "--time-limit", "2", "--json"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let row = json_lines(&output).remove(0);
    assert_eq!(row["reachable"], serde_json::Value::Null, "{row}");
    let asked = std::fs::read_to_string(&asked).unwrap();
    assert_eq!(
        asked.lines().filter(|l| *l == "whole").count(),
        1,
        "{asked}"
    );
    assert!(asked.lines().any(|l| l == "part"), "{asked}");
}

/// `retro check` takes the positions of a WTHOR database's games at `--empties`: all
/// reachable, each with a witness game the core replays to it.
#[test]
fn check_reads_wthor_games() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(30);
    let records: Vec<engine::wthor::Record> = (0..3)
        .map(|_| engine::wthor::Record {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: 0,
            theoretical_black_discs: 0,
            game: engine::Game::random(&mut rng, 20),
        })
        .collect();
    let header = engine::wthor::Header {
        created: [0; 4],
        year: 0,
        depth: 0,
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.wtb");
    std::fs::write(&db, engine::wthor::write(&header, &records)).unwrap();
    let output = retro(&["check", db.to_str().unwrap(), "--empties", "48", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let rows = json_lines(&output);
    // Rows come in the order they are answered, which threads decide.
    let mut answers: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r.get("index").is_some()).collect();
    answers.sort_by_key(|r| r["index"].as_u64());
    assert_eq!(answers.len(), 3);
    for (row, record) in answers.iter().zip(&records) {
        assert_eq!(row["reachable"], true, "{row}");
        let witness = row["witness"].as_str().unwrap();
        let reached = engine::Game::replay(engine::Position::START, witness).unwrap();
        let at_48 = record
            .game
            .positions
            .iter()
            .find(|p| p.board.empties().count_ones() == 48);
        assert_eq!(Some(reached.last()), at_48);
    }
    // Without --empties, a database without a depth says what to give.
    let output = retro(&["check", db.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("give --empties"));
}
