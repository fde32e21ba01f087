//! The `satgen` binary as a user runs it: solve, emit + decode round trip, rejected models.

use std::path::Path;
use std::process::{Command, Output};

fn satgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_satgen"))
        .args(args)
        .output()
        .expect("satgen runs")
}

/// `satgen ARGS` with `input` on its standard input.
fn satgen_with_input(args: &[&str], input: &[u8]) -> Output {
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

fn stdout_text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
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
    // No --proof: the solver's word, and said to be.
    assert_eq!(json(&output)["proof_checked"], false);
    let output = satgen(&["solve", "--mobility", "30", "--plies", "3"]);
    assert!(
        stdout_text(&output).starts_with("UNSAT (unchecked)\n"),
        "{output:?}"
    );
}

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

#[test]
fn bad_arguments_exit_2() {
    // Usage errors: clap's whole message (what is wrong, then the usage).
    for args in [
        vec!["solve", "--mobility", "65"],
        vec!["solve", "--mobility", "5", "--plies", "0"],
        vec![
            "solve",
            "--mobility",
            "5",
            "--solver",
            "kissat",
            "--solver-cmd",
            "kissat",
        ],
        vec!["solve", "--mobility", "5", "--by-ply", "--threads", "0"],
        // The threads bound of every tool: 1 to 1024.
        vec![
            "solve",
            "--mobility",
            "5",
            "--by-ply",
            "--threads",
            "4294967295",
        ],
        vec!["curve", "--to", "2", "--threads", "1025"],
        // Options of the reachability question without one.
        vec!["emit", "--mobility", "5", "--no-passes", "-o", "/dev/null"],
        vec!["emit", "--mobility", "5", "--accounting", "-o", "/dev/null"],
        vec![],
    ] {
        let output = satgen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
    // Bad input found after parsing: one line.
    let mut cases = vec![vec!["decode", "/no/such.cnf", "/no/such.model"]];
    if !cfg!(feature = "cadical") {
        cases.push(vec![
            "solve",
            "--mobility",
            "5",
            "--plies",
            "2",
            "--solver",
            "cadical",
        ]);
    }
    for args in cases {
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

/// `solve --by-ply`: SAT with a replayed game at the maximum, UNSAT above it with every
/// cube UNSAT; a solver's model that does not replay is rejected (exit 1), not trusted.
#[test]
fn solve_by_ply_answers_and_checks_models() {
    let plies = 5;
    let most = engine::reference::max_mobility(&engine::Board::START, plies);
    let p = plies.to_string();
    let m = most.to_string();
    let answer = json(&satgen(&[
        "solve",
        "--mobility",
        &m,
        "--plies",
        &p,
        "--by-ply",
        "--threads",
        "2",
        "--json",
    ]));
    assert_eq!(answer["result"], "SAT", "{answer}");
    let game =
        engine::Game::replay(engine::Position::START, answer["moves"].as_str().unwrap()).unwrap();
    assert!(game.last().board.mobility() >= most);
    assert!(answer["cubes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["result"] == "SAT"));
    assert_eq!(answer["cubes_in_all"], plies + 1);
    // One thread: the first cube (the last ply) is SAT and the rest never start; the
    // table says how many there were.
    let text = stdout_text(&satgen(&[
        "solve",
        "--mobility",
        &m,
        "--plies",
        &p,
        "--by-ply",
        "--threads",
        "1",
    ]));
    assert!(
        text.contains(&format!("1 of {} cubes by ply run: 1 SAT", plies + 1)),
        "{text}"
    );

    let above = (most + 1).to_string();
    let output = satgen(&[
        "solve",
        "--mobility",
        &above,
        "--plies",
        &p,
        "--by-ply",
        "--json",
    ]);
    assert!(output.status.success());
    let answer = json(&output);
    assert_eq!(answer["result"], "UNSAT", "{answer}");
    let cubes = answer["cubes"].as_array().unwrap();
    assert_eq!(cubes.len(), plies as usize + 1);
    assert!(cubes.iter().all(|c| c["result"] == "UNSAT"), "{answer}");

    // A "solver" that claims SAT with a model of all-false variables.
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("liar.sh");
    std::fs::write(&liar, "#!/bin/sh\necho 's SATISFIABLE'\necho 'v -1 0'\n").unwrap();
    let command = format!("sh {}", liar.display());
    let output = satgen(&[
        "solve",
        "--mobility",
        &m,
        "--plies",
        &p,
        "--by-ply",
        "--solver-cmd",
        &command,
    ]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.lines().last().unwrap().contains("model rejected"),
        "{err}"
    );
}

/// Ctrl-C during `solve --by-ply`: the solvers (and what they started) are stopped, the
/// answer is UNKNOWN with the cubes as far as they got, exit status 130; the same for a
/// single question, without an answer.
#[test]
fn interrupted_by_ply_run_says_unknown() {
    // A wrapper around a long solver run: both must go when the run is stopped.
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let slow = dir.path().join("slow.sh");
    let script = format!(
        "#!/bin/sh\nsleep 60 &\necho $! >> {}\nwait\n",
        pids.display()
    );
    std::fs::write(&slow, script).unwrap();
    let command = format!("sh {}", slow.display());
    let output = interrupted(&[
        "solve",
        "--mobility",
        "5",
        "--plies",
        "3",
        "--by-ply",
        "--solver-cmd",
        &command,
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(130));
    let answer = json(&output);
    assert_eq!(answer["result"], "UNKNOWN", "{answer}");
    assert!(
        answer["cubes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["result"] == "stopped"),
        "{answer}"
    );
    // A single question stopped the same way: exit 130 and the answer UNKNOWN.
    let output = interrupted(&[
        "solve",
        "--mobility",
        "5",
        "--plies",
        "3",
        "--solver-cmd",
        &command,
    ]);
    assert_eq!(output.status.code(), Some(130));
    assert!(stdout_text(&output).starts_with("UNKNOWN"), "{output:?}");
    // The wrapped `sleep`s are gone (or zombies waiting for a reaper).
    let pids = std::fs::read_to_string(pids).unwrap();
    assert_eq!(pids.lines().count(), 3, "{pids}");
    for pid in pids.lines() {
        // SIGKILL is delivered at once but acted on when the process is next scheduled:
        // on a loaded machine give it a few seconds to die.
        let gone = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .map(str::to_string);
            (matches!(state.as_deref(), None | Some("Z")), stat)
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !gone().0 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let (gone, stat) = gone();
        assert!(gone, "sleep {pid} still runs: {stat}");
    }
}

/// `satgen ARGS`, sent SIGINT (as Ctrl-C does) after a second.
/// A single solve stopped (varisat, which cannot be interrupted, is left behind): the
/// answer UNKNOWN with the formula's size, then the interrupt's exit status.
#[test]
fn interrupted_solve_says_unknown() {
    let output = interrupted(&["solve", "--mobility", "33", "--plies", "30", "--json"]);
    assert_eq!(output.status.code(), Some(130));
    let answer = json(&output);
    assert_eq!(answer["result"], "UNKNOWN", "{answer}");
    assert!(answer["variables"].as_u64().unwrap() > 0, "{answer}");
}

fn interrupted(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_satgen"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

/// Runs `satgen cubes ARGS -o out` and returns the manifest.
fn cubes(out: &Path, args: &[&str]) -> String {
    let mut all = vec!["cubes", "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = satgen(&all);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    std::fs::read_to_string(out.join("manifest.txt")).unwrap()
}

/// A cube file solved by varisat directly and its model decoded by `satgen decode`: the
/// answer, or `None` if the cube is UNSAT.
fn solve_and_decode(cnf: &Path, dir: &Path) -> Option<serde_json::Value> {
    let model = solve_file(cnf)?;
    let output = decode_with(cnf, &dir.join("model.txt"), &model);
    assert!(output.status.success());
    Some(json(&output))
}

/// Solves a DIMACS file with varisat directly, as an external solver would: the model's
/// literals, or `None` if unsatisfiable.
fn solve_file(cnf: &Path) -> Option<Vec<String>> {
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
fn decode_with(cnf: &Path, path: &Path, model: &[String]) -> Output {
    std::fs::write(path, format!("s SATISFIABLE\nv {} 0\n", model.join(" "))).unwrap();
    satgen(&[
        "decode",
        cnf.to_str().unwrap(),
        path.to_str().unwrap(),
        "--json",
    ])
}

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

/// `check-proof`: an accounting proof verifies against its CNF; against another CNF, or
/// cut short, it fails with exit status 1 and the step; a missing file is exit 2.
#[test]
fn check_proof_verifies_and_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let boards = [
        "X----O---O--O----XXXOO-----XX-O-X--OOOX--OOXO-O--OXO-O-OXOXOXXO- X",
        "---OO-----O--O--XOXO--XO--OOO-XO--XXOXOO-OOO-XX--XXX-O---XXXXOXO X",
    ];
    for (i, board) in boards.iter().enumerate() {
        let position = engine::Obf::parse(board).unwrap().position;
        let refuted = satgen::accounting::accounting_refutes(&position).unwrap();
        let mut cnf = Vec::new();
        satgen::dimacs::write_accounting(&mut cnf, &position, &refuted.formula).unwrap();
        std::fs::write(path(&format!("{i}.cnf")), cnf).unwrap();
        std::fs::write(path(&format!("{i}.proof")), &refuted.proof).unwrap();
    }
    let output = satgen(&["check-proof", &path("0.cnf"), &path("0.proof")]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("VERIFIED"));
    // Either file from standard input (`-`), not both.
    let cnf = std::fs::read(path("0.cnf")).unwrap();
    let proof = std::fs::read(path("0.proof")).unwrap();
    for (args, input) in [
        (["check-proof", "-", &path("0.proof")], &cnf),
        (["check-proof", &path("0.cnf"), "-"], &proof),
    ] {
        let output = satgen_with_input(&args, input);
        assert!(output.status.success(), "{args:?}: {output:?}");
    }
    let output = satgen_with_input(&["check-proof", "-", "-"], &cnf);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let output = satgen(&["check-proof", &path("0.cnf"), &path("1.proof")]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("step"));
    let proof = std::fs::read(path("0.proof")).unwrap();
    std::fs::write(path("cut.proof"), &proof[..proof.len() / 2]).unwrap();
    let output = satgen(&["check-proof", &path("0.cnf"), &path("cut.proof")]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let output = satgen(&["check-proof", &path("0.cnf"), &path("none.proof")]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // Garbage that reads as varisat's format (a control byte first), with lengths and
    // variables far beyond the file, and a device: refused in one line, never a panic or
    // an abort on a huge allocation.
    let garbage: [&[u8]; 4] = [
        &[0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x02, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x01, 0x7f, 0x13, 0x00, 0x05],
        &[0x1b, 0xfe],
    ];
    for (i, bytes) in garbage.iter().enumerate() {
        std::fs::write(path(&format!("g{i}.proof")), bytes).unwrap();
    }
    let devices = ["/dev/zero".to_string(), "/dev/null".to_string()];
    let garbage = (0..4).map(|i| path(&format!("g{i}.proof"))).chain(devices);
    for proof in garbage {
        let output = satgen(&["check-proof", &path("0.cnf"), &proof]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{proof}: {output:?}"
        );
        assert_eq!(err.lines().count(), 1, "{proof}: {err}");
        assert!(!err.contains("panicked"), "{proof}: {err}");
    }
}

/// `check-proof --checker cake_lpr|both`: where cake_lpr is installed (CI installs it,
/// scripts/install-cake-lpr.sh), CaDiCaL's proofs verify with it alone and with both
/// checkers, and a changed lemma is rejected by cake_lpr alone (exit 1); where it is not,
/// asking for it is a one-line error before any work (exit 2).
#[test]
fn cake_lpr_checks_lrat_proofs_where_installed() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data = |name: &str| data.join(name).to_str().unwrap().to_string();
    let cnf = data("pigeons-6-in-5.cnf");
    if satgen::proof::cake_lpr().is_none() {
        eprintln!("cake_lpr is not installed: only its absence is tested");
        let proof = data("pigeons-6-in-5.lrat");
        let output = satgen(&["check-proof", &cnf, &proof, "--checker", "cake_lpr"]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains("cake_lpr is not installed"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        return;
    }
    for proof in ["pigeons-6-in-5.lrat", "pigeons-6-in-5.binary.lrat"] {
        for (checker, by) in [
            ("cake_lpr", "(checked by cake_lpr)"),
            ("both", "(checked by the builtin LRAT checker and cake_lpr)"),
        ] {
            let output = satgen(&["check-proof", &cnf, &data(proof), "--checker", checker]);
            assert!(output.status.success(), "{proof} {checker}: {output:?}");
            assert!(stdout_text(&output).contains(by), "{output:?}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let altered = dir.path().join("altered.lrat");
    let text = std::fs::read_to_string(data("pigeons-6-in-5.lrat")).unwrap();
    std::fs::write(&altered, text.replacen("82 -6 ", "82 6 ", 1)).unwrap();
    let altered = altered.to_str().unwrap();
    let output = satgen(&["check-proof", &cnf, altered, "--checker", "cake_lpr"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("cake_lpr rejects it"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Proofs that CaDiCaL 2.2.1 wrote (`cadical --lrat=true [--binary=false]`) for the
/// pigeonhole formula: both forms verify; a lemma dropped or altered, the proof against
/// another CNF, and a satisfiable CNF fail with exit status 1.
#[test]
fn cadical_lrat_proofs_verify_and_tampered_ones_fail() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data = |name: &str| data.join(name).to_str().unwrap().to_string();
    let cnf = data("pigeons-6-in-5.cnf");
    for proof in ["pigeons-6-in-5.lrat", "pigeons-6-in-5.binary.lrat"] {
        let output = satgen(&["check-proof", &cnf, &data(proof)]);
        assert!(output.status.success(), "{output:?}");
        assert!(stdout_text(&output).contains("(Lrat)"));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let text = std::fs::read_to_string(data("pigeons-6-in-5.lrat")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let rejected = |name: &str, proof: &str, cnf: &str| {
        std::fs::write(path(name), proof).unwrap();
        let output = satgen(&["check-proof", cnf, &path(name)]);
        assert_eq!(output.status.code(), Some(1), "{name}: {output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    // Line 2 (clause 83) dropped: a later step names it.
    let dropped = [&lines[..1], &lines[2..]].concat().join("\n");
    assert!(rejected("dropped.lrat", &dropped, &cnf).contains("names no clause"));
    // Line 1's lemma `-6 2 4 3 5` changed to `6 2 4 3 5`: it no longer follows.
    let altered = text.replacen("82 -6 ", "82 6 ", 1);
    assert!(rejected("altered.lrat", &altered, &cnf).contains("line 1: clause 82"));
    // Against 7 pigeons in 7 holes (satisfiable): its clauses differ from the proof's.
    let mut sat = String::from("p cnf 49 7\n");
    for p in 0..7 {
        let row: Vec<String> = (1..=7).map(|h| (p * 7 + h).to_string()).collect();
        sat.push_str(&format!("{} 0\n", row.join(" ")));
    }
    std::fs::write(path("sat.cnf"), sat).unwrap();
    rejected("whole.lrat", &text, &path("sat.cnf"));
}

/// A stand-in for CaDiCaL (its name, a version with LRAT) that answers UNSAT with a
/// proof that derives nothing: `solve --proof` must reject the answer (exit 1), never
/// print UNSAT. A solver without LRAT is refused before anything runs (exit 2).
#[test]
fn solve_proof_rejects_a_false_unsat_and_a_solver_without_lrat() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("cadical");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 2.2.1; exit 0; }\n\
         for a; do last=$a; done\necho '1000 0 1 0' > \"$last\"\necho 's UNSATISFIABLE'\n",
    )
    .unwrap();
    let old = dir.path().join("kissat");
    std::fs::write(&old, "#!/bin/sh\necho 4.0.4\n").unwrap();
    for script in [&fake, &old] {
        let mut permissions = std::fs::metadata(script).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(script, permissions).unwrap();
    }
    let proofs = dir.path().join("proofs");
    let proofs = proofs.to_str().unwrap();
    let solve = |solver: &Path| {
        satgen(&[
            "solve",
            "--mobility",
            "6",
            "--plies",
            "3",
            "--solver-cmd",
            solver.to_str().unwrap(),
            "--proof",
            proofs,
        ])
    };
    let output = solve(&fake);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(!stdout_text(&output).contains("UNSAT"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("proof is rejected"));
    let output = solve(&old);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("LRAT"));
}

/// `solve --proof DIR` with the embedded varisat: every UNSAT (the question, each cube by
/// ply) leaves its CNF and a checked proof that `check-proof` verifies again; a SAT answer
/// leaves nothing. With CaDiCaL 1.9 or later on the PATH, the same with LRAT proofs.
#[test]
fn solve_proof_writes_checked_proofs() {
    let dir = tempfile::tempdir().unwrap();
    let proofs = dir.path().join("proofs");
    let proofs_arg = proofs.to_str().unwrap();
    let output = satgen(&[
        "solve",
        "--mobility",
        "30",
        "--plies",
        "3",
        "--json",
        "--proof",
        proofs_arg,
    ]);
    assert!(output.status.success(), "{output:?}");
    let answer = json(&output);
    assert_eq!(answer["result"], "UNSAT");
    assert_eq!(answer["proof_format"], "varisat");
    assert_eq!(answer["proof_checked"], true);
    let (cnf, proof) = (
        answer["cnf"].as_str().unwrap(),
        answer["proof"].as_str().unwrap(),
    );
    assert!(stdout_text(&satgen(&["check-proof", cnf, proof])).starts_with("VERIFIED"));
    // By ply: one proof per cube, each verified.
    let output = satgen(&[
        "solve",
        "--mobility",
        "12",
        "--plies",
        "4",
        "--by-ply",
        "--json",
        "--proof",
        proofs_arg,
    ]);
    assert!(output.status.success(), "{output:?}");
    let answer = json(&output);
    assert_eq!(answer["result"], "UNSAT");
    let cubes = answer["cubes"].as_array().unwrap();
    assert_eq!(cubes.len(), 5);
    for cube in cubes {
        let (cnf, proof) = (
            cube["cnf"].as_str().unwrap(),
            cube["proof"].as_str().unwrap(),
        );
        assert!(proof.ends_with(&format!("ply-{:02}.varisat", cube["ply"].as_u64().unwrap())));
        assert!(satgen(&["check-proof", cnf, proof]).status.success());
    }
    // SAT: no files.
    let sat_dir = dir.path().join("sat");
    let output = satgen(&[
        "solve",
        "--mobility",
        "6",
        "--plies",
        "3",
        "--proof",
        sat_dir.to_str().unwrap(),
    ]);
    assert!(stdout_text(&output).starts_with("SAT"), "{output:?}");
    assert_eq!(std::fs::read_dir(&sat_dir).unwrap().count(), 0);
    if satgen::solve::lrat_solver("cadical").is_err() {
        eprintln!("no CaDiCaL with LRAT on the PATH: its part of this test is skipped");
        return;
    }
    let output = satgen(&[
        "solve",
        "--mobility",
        "12",
        "--plies",
        "4",
        "--by-ply",
        "--json",
        "--solver-cmd",
        "cadical",
        "--proof",
        proofs_arg,
    ]);
    assert!(output.status.success(), "{output:?}");
    for cube in json(&output)["cubes"].as_array().unwrap() {
        assert_eq!(cube["proof_format"], "lrat");
        let proof = cube["proof"].as_str().unwrap();
        assert!(
            satgen(&["check-proof", cube["cnf"].as_str().unwrap(), proof])
                .status
                .success()
        );
    }
}

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

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(satgen(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(satgen(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("satgen.1").is_file());
    let help = String::from_utf8(satgen(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("satgen-{command}.1")).is_file(),
            "{command}"
        );
    }
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
