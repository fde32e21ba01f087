//! `engine solve`: rows, JSON, checked answers, interrupts, games as input, memory limits.

use std::io::BufRead;
use std::process::Command;

use crate::common::*;

#[test]
fn solve_prints_rows_json_and_checks_answers() {
    let output = engine(&["solve", &problems("fforum-1-19.obf"), "--hash-mb", "16"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = stdout(&output);
    assert_eq!(table.lines().count(), 1 + 19 + 1, "{table}");
    assert!(
        table
            .lines()
            .last()
            .unwrap()
            .starts_with("total: 19 positions"),
        "{table}"
    );
    assert!(table.contains("0 mismatches"), "{table}");

    let output = engine(&[
        "solve",
        &problems("fforum-1-19.obf"),
        "--json",
        "--shard",
        "2/3",
    ]);
    assert!(output.status.success());
    let rows: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let indices: Vec<u64> = rows.iter().filter_map(|r| r["index"].as_u64()).collect();
    assert_eq!(indices, [2, 5, 8, 11, 14, 17]);
    for key in [
        "empties",
        "score",
        "best_move",
        "nodes",
        "seconds",
        "pv",
        "expected_ok",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    assert_eq!(rows[0]["score"], 10);
    assert_eq!(rows[0]["best_move"], "a4");
    assert_eq!(rows.last().unwrap()["summary"], true);
}

#[test]
fn solve_reports_mismatches_with_status_1() {
    // FFO #1 is +18 by g8; claim +20 instead.
    let line = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let wrong = line.lines().next().unwrap().replace("G8:+18", "G8:+20");
    let output = engine(&["solve", "--board", &wrong]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("MISMATCH"));
    let output = engine(&["solve", "--board", &wrong, "--wld", "--json"]);
    assert_eq!(output.status.code(), Some(0), "the sign still agrees");
    assert!(stdout(&output).contains("\"score\":1"));
}

#[test]
fn solve_rejects_bad_options() {
    for (args, message) in [
        (
            vec!["solve", "--board", "f5", "--hash-mb", "0"],
            "0 MiB is too little: at least 2",
        ),
        (
            vec!["solve", "--board", "f5", "--shard", "4/3"],
            "shard must be I/N",
        ),
    ] {
        let output = engine(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--help") && stderr.lines().count() > 1,
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let output = engine(&["solve", "/no/such/file.obf"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("/no/such/file.obf: No such file"),
        "{stderr}"
    );
}

/// Ctrl-C during a long solve: the rows already solved and the total are still printed.
#[cfg(unix)]
#[test]
fn solve_interrupted_keeps_solved_rows() {
    let dir = std::env::temp_dir().join(format!("engine-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("two.obf");
    let first = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let start = "---------------------------OX------XO--------------------------- X;";
    std::fs::write(
        &path,
        format!("{}\n{start}\n", first.lines().next().unwrap()),
    )
    .unwrap();
    // Ctrl-C, and SIGTERM (what timeout, Slurm and GNU parallel send) alike, once the
    // first row is out (however loaded the machine), while the start is being solved.
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["solve", path.to_str().unwrap(), "--hash-mb", "16"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let mut table = String::new();
        while !table.contains("   1      14 ") {
            let line = lines.next().expect("a row before the end").unwrap();
            table += &line;
            table.push('\n');
        }
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        for line in lines {
            table += &line.unwrap();
            table.push('\n');
        }
        assert_eq!(child.wait().unwrap().code(), Some(status), "{signal}");
        assert!(table.contains("   1      14   +18"), "{table}");
        assert!(table.contains("total: 1 positions"), "{table}");
        assert!(table.contains("(interrupted)"), "{table}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-` reads the positions from standard input.
#[test]
fn solve_reads_standard_input() {
    use std::io::Write as _;
    let first = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["solve", "-", "--hash-mb", "16"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = first.lines().find(|l| !l.starts_with('%')).unwrap();
    writeln!(child.stdin.take().unwrap(), "{line}").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let table = stdout(&output);
    assert!(table.contains("   1      14   +18"), "{table}");
}

/// `solve --wld` says win, draw or loss in its table (as `dfpn wld` does); the JSON keeps
/// the sign as the score and adds the word.
#[test]
fn wld_is_shown_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.obf");
    let text = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    std::fs::write(&file, text.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap();
    let file = file.to_str().unwrap();
    let text = stdout(&engine(&["solve", file, "--wld"]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("wld"), "{text}");
    assert!(lines[1].split_whitespace().nth(2) == Some("win"), "{text}");
    let json = stdout(&engine(&["solve", file, "--wld", "--json"]));
    let row: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!((&row["score"], &row["wld"]), (&1.into(), &"win".into()));
}

/// A position with 40 or more empties gets a warning (on stderr, before the search) that
/// names the faster ways; it is stopped right after it.
#[test]
fn solve_warns_before_a_very_long_search() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["solve", "--board", "f5d6c3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        first.contains("57 empties") && first.contains("--wld"),
        "{first}"
    );
}

/// A WTHOR database of random games whose theoretical scores (black's discs with perfect
/// play from 10 empties, by naive minimax) are written in: `engine solve` checks them as
/// Edax's `-wtest` does, a wrong one is a mismatch (exit 1), and `--empties` takes other
/// positions of the same games. GGF files of the same games give the same positions.
#[test]
fn solve_and_show_read_wthor_and_ggf_games() {
    use engine::{wthor, Color, Game, Move};
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(32);
    let games: Vec<Game> = (0..30)
        .map(|_| Game::random(&mut rng, 60))
        .filter(|g| {
            g.positions
                .iter()
                .any(|p| p.board.empties().count_ones() == 10)
        })
        .take(6)
        .collect();
    assert_eq!(games.len(), 6);
    let records: Vec<wthor::Record> = games
        .iter()
        .map(|game| {
            let at_10 = game
                .positions
                .iter()
                .find(|p| p.board.empties().count_ones() == 10)
                .unwrap();
            let score = engine::reference::minimax(&at_10.board, -65, 65);
            let black = if at_10.side == Color::Black {
                score
            } else {
                -score
            };
            wthor::Record {
                tournament: 1,
                black_player: 2,
                white_player: 3,
                black_discs: 32,
                theoretical_black_discs: ((black + 64) / 2) as u8,
                game: game.clone(),
            }
        })
        .collect();
    let header = wthor::Header {
        created: [20, 26, 11, 24],
        year: 2026,
        depth: 10,
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("random.wtb");
    std::fs::write(&db, wthor::write(&header, &records)).unwrap();
    let db = db.to_str().unwrap();

    let output = engine(&["solve", db, "--hash-mb", "16", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let rows: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 7, "six positions and the summary");
    assert!(rows[..6]
        .iter()
        .all(|r| r["empties"] == 10 && r["expected_ok"] == true));

    let mut wrong = records.clone();
    wrong[3].theoretical_black_discs ^= 2;
    std::fs::write(dir.path().join("wrong.wtb"), wthor::write(&header, &wrong)).unwrap();
    let wrong = dir.path().join("wrong.wtb");
    let output = engine(&["solve", wrong.to_str().unwrap(), "--hash-mb", "16"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(stdout(&output).matches("MISMATCH").count(), 1);

    // Other depths have no known score to check; the games that end sooner give none.
    let output = engine(&["solve", db, "--empties", "12", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let rows = stdout(&output);
    assert_eq!(rows.matches("\"empties\":12").count(), 6, "{rows}");
    assert!(!rows.contains("\"expected_ok\":true"), "{rows}");
    let output = engine(&["show", db, "--empties", "20"]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("random.wtb game 6"));
    let output = engine(&["show", db]);
    assert!(stdout(&output).contains("theoretical score: "));

    // The same games as GGF, passes left out as GGS writes them, two on one line.
    let mut text = String::from("% six random games\n");
    for (i, game) in games.iter().enumerate() {
        text.push_str("(;GM[Othello]PC[test]TY[8]BO[8 ");
        text.push_str(&"-".repeat(27));
        text.push_str("O*------*O");
        text.push_str(&"-".repeat(27));
        text.push_str(" *]");
        for (mv, before) in game.moves.iter().zip(&game.positions) {
            if let Move::Play(sq) = mv {
                let colour = if before.side == Color::Black {
                    "B"
                } else {
                    "W"
                };
                text.push_str(&format!("{colour}[{}]", sq.to_string().to_uppercase()));
            }
        }
        text.push_str(if i % 2 == 0 { ";) " } else { ";)\n" });
    }
    let ggf = dir.path().join("random.ggf");
    std::fs::write(&ggf, text).unwrap();
    let ggf = ggf.to_str().unwrap();
    let from_ggf = engine(&["show", ggf, "--empties", "20"]);
    let from_wthor = engine(&["show", db, "--empties", "20"]);
    assert_eq!(
        stdout(&from_ggf).replace("random.ggf", "random.wtb"),
        stdout(&from_wthor)
    );

    // Errors: one line, exit 2.
    let bad = dir.path().join("cut.wtb");
    std::fs::write(&bad, &wthor::write(&header, &records)[..200]).unwrap();
    for (args, message) in [
        (vec!["solve", ggf], "give --empties for a GGF file"),
        (
            vec!["solve", bad.to_str().unwrap()],
            "but the header announces 6 games",
        ),
        (vec!["solve", db, "--empties", "61"], "61 is not in 0..=60"),
    ] {
        let output = engine(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(message), "{args:?}: {error}");
    }
    let obf = problems("fforum-1-19.obf");
    let output = engine(&["solve", &obf, "--empties", "10"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(error.contains("--empties is for files of games"), "{error}");
}

/// A table larger than the address-space limit (`ulimit -v`) leaves room for is a usage
/// error naming the size and the limit (exit 2), not an abort on the failed allocation;
/// within it, the same command runs.
#[test]
fn a_table_beyond_the_address_space_limit_is_refused() {
    let run = |hash_mb: &str| {
        let script = format!(
            "ulimit -v 4000000 && exec \"$0\" solve \"$1\" --hash-mb {hash_mb} --threads 1"
        );
        Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_engine")])
            .arg(problems("fforum-1-19.obf"))
            .output()
            .expect("sh runs")
    };
    let refused = run("8000");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("8000 MiB") && err.contains("address-space limit"),
        "{err}"
    );
    assert!(!err.contains("memory allocation"), "{err}");
    let within = run("64");
    assert!(within.status.success(), "{within:?}");
}

/// A table the system refuses after the budget passed its checks (here a data limit,
/// `ulimit -d`, which the budget does not read, as memory taken by others would) is a
/// one-line error naming the size (exit 2), not Rust's abort on a failed allocation.
#[test]
fn a_table_the_system_refuses_is_an_error_not_an_abort() {
    let script = "ulimit -d 600000 && exec \"$0\" solve \"$1\" --hash-mb 2000 --threads 1";
    let refused = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_engine")])
        .arg(problems("fforum-1-19.obf"))
        .output()
        .expect("sh runs");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("the system refused a table of 1024 MiB"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `solve --check-all-answers` checks the score the line gives every move, not only the
/// best: FFO #1's `H1:+12` holds, `H1:+14` is a mismatch (exit 1) naming the move, which
/// the plain solve does not see.
#[test]
fn every_answer_of_a_line_is_checked_when_asked() {
    let line = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let first = line.lines().next().unwrap();
    assert!(first.contains("H1:+12;"), "{first}");
    let wrong = first.replace("H1:+12;", "H1:+14;");
    let run = |board: &str, all: bool| {
        let mut args = vec!["solve", "--board", board, "--threads", "1"];
        if all {
            args.push("--check-all-answers");
        }
        engine(&args)
    };
    assert!(run(first, true).status.success());
    assert!(
        run(&wrong, false).status.success(),
        "the best answer alone holds"
    );
    let output = run(&wrong, true);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        stdout(&output).contains("MISMATCH (h1 scores less than the +14 the line gives)"),
        "{}",
        stdout(&output)
    );
}

/// `--time-limit`: the start position (60 empties, beyond any exact solve) is left unknown
/// at the limit, and the run goes on to FFO #1; `merge` counts the unknown row. Without
/// the limit the run would not end: it is stopped after a minute, failing the test.
#[test]
fn a_position_over_the_time_limit_is_unknown_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.obf");
    let first = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let start = "---------------------------OX------XO--------------------------- X;";
    std::fs::write(
        &path,
        format!("{start}\n{}\n", first.lines().next().unwrap()),
    )
    .unwrap();
    // coreutils' `timeout` ends the run after a minute (exit 124) if the limit did not.
    let output = Command::new("timeout")
        .args([
            "60",
            env!("CARGO_BIN_EXE_engine"),
            "solve",
            path.to_str().unwrap(),
        ])
        .args("--time-limit 0.5 --json --threads 1 --hash-mb 16".split(' '))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let rows: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["unknown"], true);
    assert_eq!(rows[0]["score"], serde_json::Value::Null);
    assert!(rows[0]["seconds"].as_f64().unwrap() >= 0.5);
    assert_eq!(
        (&rows[1]["score"], &rows[1]["unknown"]),
        (&18.into(), &serde_json::Value::Null)
    );
    assert_eq!(
        (&rows[2]["positions"], &rows[2]["unknown"]),
        (&1.into(), &1.into())
    );

    let run = dir.path().join("run.jsonl");
    std::fs::write(&run, &output.stdout).unwrap();
    let merged = engine(&["merge", run.to_str().unwrap()]);
    assert!(merged.status.success(), "{merged:?}");
    let table = stdout(&merged);
    assert!(table.contains("   1      60     ?"), "{table}");
    assert!(
        table.contains("total: 1 positions") && table.contains("1 unknown"),
        "{table}"
    );
}
