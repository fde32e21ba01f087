//! `satgen solve`: answers, by ply, interrupts, checked proofs.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::*;

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
