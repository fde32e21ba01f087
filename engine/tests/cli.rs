//! The `engine` binary as a user runs it: output formats, exit codes, one-line errors.

use std::io::BufRead;
use std::process::{Command, Output};

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("engine runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

fn problems(name: &str) -> String {
    format!("{}/../problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn perft_json_prints_the_published_counts() {
    let output = engine(&["perft", "11", "--json"]);
    assert!(output.status.success());
    let rows: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let leaves: Vec<u64> = rows.iter().map(|r| r["leaves"].as_u64().unwrap()).collect();
    assert_eq!(
        leaves,
        [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056, 212258216]
    );
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["depth"], i as u64 + 1);
        for key in ["passes", "finished", "seconds"] {
            assert!(row.get(key).is_some(), "{key}");
        }
    }
    assert_eq!(rows[10]["finished"], 584);
    // The published counts (A124004: a game that ended early is a leaf) in `games`.
    let games: Vec<u64> = rows.iter().map(|r| r["games"].as_u64().unwrap()).collect();
    assert_eq!(games[8..], [3005288, 24571284, 212258800]);
}

#[test]
fn perft_from_a_board() {
    // After f5, white has three moves and black twelve replies in all.
    let output = engine(&["perft", "2", "--board", "f5", "--threads", "1"]);
    assert!(output.status.success());
    let table = stdout(&output);
    let rows: Vec<&str> = table.lines().collect();
    assert!(rows[0].contains("leaves"));
    assert_eq!(rows[1].split_whitespace().nth(1), Some("3"), "{table}");
    assert_eq!(rows[2].split_whitespace().nth(1), Some("14"), "{table}");
}

#[test]
fn show_every_ffo_position() {
    for file in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let text = std::fs::read_to_string(problems(file)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let output = engine(&["show", line]);
            assert!(output.status.success(), "{line}");
            let shown = stdout(&output);
            // The OBF line shown back is the input's canonical form, answers included (a
            // `%` comment is not part of it).
            let line = line.split('%').next().unwrap().trim_end();
            assert!(shown.contains(&format!("obf: {line}")), "{shown}");
            assert!(shown.contains("legal moves ("), "{shown}");
        }
        let output = engine(&["show", &problems(file)]);
        assert!(output.status.success());
        assert!(stdout(&output).matches("obf: ").count() >= 19);
    }
}

#[test]
fn show_a_move_list() {
    let output = engine(&["show", "F5d6C3"]);
    assert!(output.status.success());
    let shown = stdout(&output);
    assert!(shown.contains("moves: f5d6c3 (3 plies)"), "{shown}");
    assert!(shown.contains("white (O) to move"), "{shown}");
    let over = stdout(&engine(&["show", "d3c3b3d2e1d6d7e3f4"]));
    assert!(over.contains("game over: final score -64"), "{over}");
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty_file = dir.path().join("empty.obf").to_str().unwrap().to_string();
    std::fs::write(&empty_file, "% nothing here\n\n").unwrap();
    let empty = "-".repeat(64);
    let start = "---------------------------OX------XO---------------------------";
    let cases: Vec<(Vec<String>, &str)> =
        vec![
        (
            vec!["show".into(), "f5 a1".into()],
            "position:1:4: illegal move a1",
        ),
        (
            vec!["show".into(), format!("{start} Q")],
            "position:1:66: side to move",
        ),
        (
            vec!["show".into(), format!("{empty} X")],
            "impossible position: centre square d4",
        ),
        (
            vec!["show".into(), format!("{start} X; A1:+70;")],
            "out of range",
        ),
        (
            vec!["perft".into(), "3".into(), "--board".into(), "zz".into()],
            "--board:1:1:",
        ),
        // A mistyped file name is a missing file, not a bad move list.
        (
            vec!["show".into(), "nonexist.obf".into()],
            "nonexist.obf: no such file",
        ),
        (
            vec!["solve".into(), empty_file.clone()],
            "no positions (every line is empty or a comment)",
        ),
        // Input is read a line at a time with a cap (it grew to gigabytes on /dev/zero).
        (
            vec!["solve".into(), "/dev/zero".into()],
            "/dev/zero:1: line longer than 1 MiB",
        ),
        // An answer for a move that cannot be played is a malformed line (it was exit 1,
        // a wrong answer).
        (
            vec!["solve".into(), "--board".into(), format!("{start} X; A1:+2;")],
            "--board:1:69: illegal move a1",
        ),
        // A board with a square missing is read as a board, not as a list of moves.
        (
            vec!["show".into(), format!("{} X", &start[1..])],
            "board has 63 squares",
        ),
        (
            vec!["show".into(), dir.path().to_str().unwrap().into()],
            "is a directory",
        ),
        (
            vec!["show".into(), "no".into()],
            "\"no\" is not a move (a1..h8, or ps/pa/pass for a pass); nor is there a file \"no\"",
        ),
        (
            vec!["solve".into(), format!("{} X", start.replace('-', "."))],
            "it looks like a position: give it with --board",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = engine(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

/// `-` is standard input for `show`, as for the batch commands.
#[test]
fn show_reads_standard_input() {
    let lines = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let (output, shown) = engine_with_input(&["show", "-"], &lines);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(shown.matches("obf: ").count(), 19, "{shown}");
    assert!(shown.starts_with("-:"), "{shown}");
}

/// What parses as a position is one, even where a file of that name exists.
#[test]
fn show_reads_a_position_before_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f5d6"), "not an OBF file\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["show", "f5d6"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).starts_with("moves: f5d6 (2 plies)"));
}

/// Usage errors show clap's whole message on stderr, exit status 2: what is wrong, a
/// suggestion for a mistyped name, the usage; the help when nothing is given.
#[test]
fn usage_errors_show_the_whole_message() {
    for (args, message) in [
        (vec!["perft", "0"], "0 is not in 1..=60"),
        (vec!["perft", "x"], "invalid value 'x'"),
        (vec!["perft", "3", "--nope"], "unexpected argument"),
        (vec!["frobnicate"], "unrecognized subcommand"),
        (vec!["sovle"], "a similar subcommand exists: 'solve'"),
        (
            vec!["solve", "--board", "f5", "--hash-mb", "99999999"],
            "MiB of memory this machine has",
        ),
        (
            vec!["solve", "--board", "f5", "--hash-mb", "-1"],
            "a positive number of MiB",
        ),
        // Without the arguments it needs, the whole help.
        (vec!["solve"], "Usage: engine solve"),
        (vec![], "Commands:"),
    ] {
        let output = engine(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--help") && stderr.lines().count() > 1,
            "{args:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_file_names_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("engine-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.obf");
    let start = "---------------------------OX------XO---------------------------";
    std::fs::write(&path, format!("% comment\n{start} X;\n{start} X; G8+1;\n")).unwrap();
    let output = engine(&["show", path.to_str().unwrap()]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let expected = format!(
        "engine: {}:3:69: answer field \"G8+1\" is not MOVE:SCORE",
        path.display()
    );
    assert_eq!(stderr.trim(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_board_accepts_obf_lines_starting_with_a_dash() {
    let line = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let first = line.lines().next().unwrap();
    let output = engine(&["perft", "1", "--board", first, "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // FFO #1 lists 8 moves with their scores: black has exactly those 8.
    assert!(
        stdout(&output).contains("\"leaves\":8"),
        "{}",
        stdout(&output)
    );
}

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

#[test]
fn datagen_resumes_and_train_writes_weights_that_solve_uses() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.csv");
    let data = data.to_str().unwrap();
    let common = [
        "--exact-empties",
        "10",
        "--eval",
        "hand",
        "--threads",
        "2",
        "-o",
        data,
    ];
    let first = engine(&[&["datagen", "--games", "6"], &common[..]].concat());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(stdout(&first).starts_with("6 games"), "{}", stdout(&first));
    // Cut the last line short, as an interrupt would: the rerun drops it and plays only
    // the games not yet in the file.
    let text = std::fs::read_to_string(data).unwrap();
    std::fs::write(data, &text[..text.len() - 5]).unwrap();
    let second = engine(&[&["datagen", "--games", "9"], &common[..]].concat());
    assert!(second.status.success());
    assert!(
        stdout(&second).starts_with("3 games"),
        "{}",
        stdout(&second)
    );
    assert!(stdout(&second).contains("(6 games were already there)"));
    let text = std::fs::read_to_string(data).unwrap();
    let games: std::collections::BTreeSet<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(games.len(), 9);
    assert!(text.lines().skip(1).all(|l| l.split(',').count() == 6));

    let weights = dir.path().join("w.bin");
    let weights = weights.to_str().unwrap();
    let train = engine(&["train", data, "-o", weights, "--iterations", "5", "--json"]);
    assert!(
        train.status.success(),
        "{}",
        String::from_utf8_lossy(&train.stderr)
    );
    let phases: Vec<serde_json::Value> = stdout(&train)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(phases.len(), 16);
    let solve = engine(&["solve", &problems("fforum-1-19.obf"), "--eval", weights]);
    assert!(solve.status.success(), "{}", stdout(&solve));

    // Damaged inputs: one line naming the file, status 2.
    std::fs::write(data, format!("{text}1,zz,0,60,0,exact\n")).unwrap();
    for args in [
        vec!["train", data, "-o", weights],
        vec!["datagen", "--games", "10", "-o", data],
    ] {
        let output = engine(&args);
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(
            message.contains(data) && message.contains("line "),
            "{message}"
        );
    }
    std::fs::write(weights, b"OTHEVAL1 truncated").unwrap();
    let output = engine(&["solve", "--board", "f5", "--eval", weights]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains(weights));
    // A device is read with a cap, not into memory without end.
    let output = engine(&["solve", "--board", "f5", "--eval", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a weights file"));
}

/// Runs `engine ARGS` with `input` on stdin; returns its stdout.
fn engine_with_input(args: &[&str], input: &str) -> (Output, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("engine runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    (output, text)
}

#[test]
fn nboard_session() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let script = format!(
        "nboard 2\nset depth 4\nset contempt 0\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]{start}B[F5//0.1]W[D6];)\n\
         ping 1\nhint 2\ngo\nmove C3/0.5/1.0\nmove a1\ngo\nlearn\nping 2\nquit\n"
    );
    let (output, text) = engine_with_input(&["nboard"], &script);
    assert!(output.status.success());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "set myname engine");
    assert_eq!(lines[1], "pong 1");
    let searches: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .copied()
        .collect();
    assert_eq!(searches.len(), 2, "{text}");
    // The hints and the first answer are black's legal moves after f5 d6.
    let after_d6 = engine::Game::replay(engine::Position::START, "f5d6").unwrap();
    let legal: Vec<String> = after_d6
        .last()
        .board
        .legal_moves()
        .map(|sq| sq.to_string().to_uppercase())
        .collect();
    for line in &searches {
        let fields: Vec<&str> = line.split(' ').collect();
        assert!(legal.iter().any(|m| m == fields[1]), "{line}");
        assert!(
            fields[2].parse::<f64>().is_ok() && fields[4] == "4",
            "{line}"
        );
    }
    let answers: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("=== "))
        .copied()
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert!(
        legal.iter().any(|m| m == &answers[0][4..6]),
        "{}",
        answers[0]
    );
    // After c3 it is white's turn: the second answer is one of white's moves there.
    let after_c3 = engine::Game::replay(engine::Position::START, "f5d6c3").unwrap();
    let white_move: engine::Move = answers[1][4..6].to_lowercase().parse().unwrap();
    assert!(after_c3.last().play(white_move).is_ok(), "{}", answers[1]);
    assert!(text.contains("status bad move \"a1\""), "{text}");
    assert!(lines.contains(&"learned"));
    assert_eq!(lines.last(), Some(&"pong 2"));
}

/// With a time limit in the game, `go` at depth 20 (about 5 s here) answers within its
/// share of the clock: 30 s less what black used, spread over black's remaining moves.
#[test]
fn nboard_go_keeps_to_the_clock() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let script = format!(
        "nboard 2\nset depth 20\nset game (;GM[Othello]TI[0:30]TY[8]{start}B[F5//2.5]W[D6//1];)\n\
         move C3/0.5/3.0\nmove D3\ngo\nquit\n"
    );
    let started = std::time::Instant::now();
    let (output, text) = engine_with_input(&["nboard"], &script);
    assert!(output.status.success());
    // Black: 30 - 2.5 - 3 = 24.5 s for 29 moves: under a second for this one.
    assert!(started.elapsed().as_secs_f64() < 10.0, "{text}");
    let answer = text
        .lines()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    let after_d3 = engine::Game::replay(engine::Position::START, "f5d6c3d3").unwrap();
    let mv: engine::Move = answer[4..6].to_lowercase().parse().unwrap();
    assert!(after_d3.last().play(mv).is_ok(), "{answer}");
    let seconds: f64 = answer.rsplit('/').next().unwrap().parse().unwrap();
    assert!(seconds < 1.5, "{answer}");
}

#[test]
fn play_in_the_terminal_with_undo() {
    let (output, text) = engine_with_input(
        &["play", "--depth", "3", "--moves", "f5d6"],
        "c3\nundo\nzz\nc4\nquit\n",
    );
    assert!(output.status.success());
    assert_eq!(text.matches("engine plays").count(), 2, "{text}");
    assert!(text.contains("is not a move"), "{text}");
    // By the clock: a move however little time there is; a negative time is refused.
    let (output, text) = engine_with_input(
        &["play", "--seconds", "0.001", "--engine", "black"],
        "quit\n",
    );
    assert!(output.status.success());
    assert!(text.contains("engine plays"), "{text}");
    let (output, _) = engine_with_input(&["play", "--seconds=-1"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn match_plays_both_colours_of_each_opening() {
    let output = engine(&["match", "--openings", "3", "--depth", "2", "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(summary["games"], 6);
    let count = |key: &str| summary[key].as_u64().unwrap();
    assert_eq!(count("wins") + count("draws") + count("losses"), 6);
    // The same evaluation on both sides: each opening's two games mirror each other's
    // colours, so the first player's mean is exactly zero.
    let mirror = engine(&[
        "match",
        "--first",
        "hand",
        "--second",
        "hand",
        "--openings",
        "3",
        "--depth",
        "2",
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_str(stdout(&mirror).trim()).unwrap();
    assert_eq!(summary["mean_discs"], 0.0);
    assert_eq!(summary["score"], 0.5);
    assert_eq!(summary["first_nodes"], summary["second_nodes"]);
}

#[test]
fn match_sides_differ_in_depth_and_selectivity() {
    let output = engine(&[
        "match",
        "--first",
        "hand",
        "--second",
        "hand",
        "--openings",
        "2",
        "--first-depth",
        "5",
        "--second-depth",
        "5",
        "--second-selectivity",
        "none",
        "--json",
    ]);
    assert!(output.status.success());
    let summary: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(summary["first_selectivity"], 1);
    assert_eq!(summary["second_selectivity"], serde_json::Value::Null);
    let nodes = |key: &str| summary[key].as_u64().unwrap();
    assert!(nodes("first_nodes") < nodes("second_nodes"), "{summary}");
    let bad = engine(&["match", "--first-selectivity", "5"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("ProbCut level"));
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

/// Every subcommand whose `--json` writes several objects says it writes JSON Lines.
#[test]
fn json_lines_are_named_in_the_help() {
    for command in ["solve", "perft", "analyze", "probcut", "train"] {
        let help = stdout(&engine(&[command, "--help"]));
        assert!(
            help.contains("JSON Lines"),
            "engine {command} --help: {help}"
        );
    }
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

/// `merge`: the shards of `solve --json` put back together give the whole run's answers
/// in file order; a missing, repeated or interrupted shard is an error (exit 2); a row
/// that does not agree with the file's answers is a mismatch (exit 1).
#[test]
fn merge_puts_shards_back_together() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let text = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    std::fs::write(
        path("five.obf"),
        text.lines().take(5).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let output = engine(&["solve", &path("five.obf"), "--shard", &shard, "--json"]);
        assert!(output.status.success(), "{output:?}");
        std::fs::write(path(&format!("part{i}.jsonl")), &output.stdout).unwrap();
    }
    let whole = stdout(&engine(&["solve", &path("five.obf"), "--json"]));
    let merged = engine(&[
        "merge",
        &path("part3.jsonl"),
        &path("part1.jsonl"),
        &path("part2.jsonl"),
        "--json",
    ]);
    assert!(merged.status.success(), "{merged:?}");
    let answers = |text: &str| -> Vec<(u64, i64)> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["summary"] != true)
            .map(|v| (v["index"].as_u64().unwrap(), v["score"].as_i64().unwrap()))
            .collect()
    };
    assert_eq!(answers(&stdout(&merged)), answers(&whole));
    let summary: serde_json::Value =
        serde_json::from_str(stdout(&merged).lines().last().unwrap()).unwrap();
    assert_eq!(
        (&summary["positions"], &summary["mismatches"]),
        (&5.into(), &0.into())
    );

    let fails = |files: &[&str], message: &str, code: i32| {
        let mut args = vec!["merge"];
        args.extend_from_slice(files);
        let output = engine(&args);
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(code), "{files:?}: {err}");
        assert!(err.contains(message), "{files:?}: {err}");
    };
    let (p1, p2, p3) = (
        path("part1.jsonl"),
        path("part2.jsonl"),
        path("part3.jsonl"),
    );
    fails(&[&p1, &p2], "shard 3/3 is missing", 2);
    fails(&[&p1, &p2, &p3, &p3], "and again in", 2);
    let third = std::fs::read_to_string(&p3).unwrap();
    let write = |name: &str, text: &str| {
        std::fs::write(path(name), text).unwrap();
        path(name)
    };
    // Damage after the run: a summary or a row changed, a row deleted, the summary cut
    // off; each refused, naming where.
    let edited = write(
        "edited.jsonl",
        &third.replace("\"interrupted\":false", "\"interrupted\":true"),
    );
    fails(&[&p1, &p2, &edited], "edited.jsonl:2: a summary changed", 2);
    let changed = third.replacen("\"expected_ok\":true", "\"expected_ok\":false", 1);
    let changed = write("changed.jsonl", &changed);
    fails(&[&p1, &p2, &changed], "not those it vouches for", 2);
    let lines: Vec<&str> = third.lines().collect();
    let deleted = write("deleted.jsonl", &lines[1..].join("\n"));
    fails(
        &[&p1, &p2, &deleted],
        "vouches for 1 rows, 0 come before it",
        2,
    );
    let cut = write("cut.jsonl", lines[0]);
    fails(&[&p1, &p2, &cut], "cut.jsonl:1: 1 row without a summary", 2);
    // Taken as they are when asked, and then the missing shard is what is missing.
    let mut args = vec!["merge", "--unsealed"];
    args.extend([p1.as_str(), p2.as_str(), cut.as_str()]);
    let output = engine(&args);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("shard 3/3 is missing"),
        "{output:?}"
    );
    // What a run really interrupted, or really at odds with the file's answers, writes
    // (sealed again as the run would have sealed it).
    let interrupted = write(
        "interrupted.jsonl",
        &reseal(&third.replace("\"interrupted\":false", "\"interrupted\":true")),
    );
    fails(&[&p1, &p2, &interrupted], "interrupted", 2);
    let wrong = third.replacen("\"expected_ok\":true", "\"expected_ok\":false", 1);
    let wrong = write("wrong.jsonl", &reseal(&wrong));
    fails(&[&p1, &p2, &wrong], "", 1);
    // Shard 3/3 of another file of five positions, and of a run with --wld.
    std::fs::write(
        path("other.obf"),
        text.lines().skip(5).take(5).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let other = engine(&["solve", &path("other.obf"), "--shard", "3/3", "--json"]);
    let other = write("other.jsonl", &stdout(&other));
    fails(&[&p1, &p2, &other], "a part of another run than", 2);
    let mut args = vec!["merge", "--mixed-runs"];
    args.extend([p1.as_str(), p2.as_str(), other.as_str()]);
    assert!(engine(&args).status.success());
    let wld = engine(&[
        "solve",
        &path("five.obf"),
        "--shard",
        "3/3",
        "--json",
        "--wld",
    ]);
    let wld = write("wld.jsonl", &stdout(&wld));
    fails(&[&p1, &p2, &wld], "options \"\" against \"--wld\"", 2);
    // Rows of another tool, and an empty file.
    let retro_rows = write(
        "retro.jsonl",
        "{\"index\":1,\"reachable\":true,\"method\":\"sat\"}\n",
    );
    fails(
        &[&retro_rows],
        "retro.jsonl:1: not a row of `engine solve`",
        2,
    );
    let empty = write("empty.jsonl", "");
    fails(&[&empty], "empty.jsonl: no rows", 2);
}

/// The JSON Lines `text` of a run with its summary sealed again over its rows as they now
/// are: what the run would have written had it given these answers.
fn reseal(text: &str) -> String {
    use engine::seal;
    let mut digest = seal::RowDigest::default();
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["summary"] == true {
            let object = value.as_object_mut().unwrap();
            digest.write_into(object);
            seal::seal(object);
        } else {
            digest.add(&value);
        }
        lines.push(value.to_string());
    }
    lines.join("\n")
}

/// `perft --shard I/N` parts merged by `merge` equal the unsharded count at every depth,
/// also where a part is run as the two of a finer split that make it up (1/3 as 1/6 and
/// 4/6); a missing, repeated or overlapping shard, or a shard of another count, is an
/// error (exit 2).
#[test]
fn perft_shards_merge_into_the_whole_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let counts = |text: &str| -> Vec<(u64, u64, u64, u64)> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| {
                let n = |key: &str| v[key].as_u64().unwrap();
                (n("depth"), n("leaves"), n("passes"), n("finished"))
            })
            .collect()
    };
    // From a position where games end and passes happen within a few plies.
    let board = "--XXXXXX-OOOOX-OOOXXOXXOOXOOXXXXOOXOOXXXOOOXXXOXO-OOXXXXX-OOOOOO X";
    let args = ["perft", "7", "--board", board, "--hash-mb", "2", "--json"];
    let whole = stdout(&engine(&args));
    assert!(counts(&whole).iter().any(|c| c.2 > 0 && c.3 > 0), "{whole}");
    for (name, shard) in [
        ("p1", "1/3"),
        ("p2", "2/3"),
        ("p3", "3/3"),
        ("q1", "1/6"),
        ("q4", "4/6"),
    ] {
        let mut args = args.to_vec();
        args.extend(["--shard", shard, "--split-plies", "2"]);
        let output = engine(&args);
        assert!(output.status.success(), "{output:?}");
        std::fs::write(path(&format!("{name}.jsonl")), &output.stdout).unwrap();
    }
    let (p1, p2, p3) = (path("p1.jsonl"), path("p2.jsonl"), path("p3.jsonl"));
    let (q1, q4) = (path("q1.jsonl"), path("q4.jsonl"));
    for parts in [vec![&p2, &p3, &p1], vec![&q4, &p2, &p3, &q1]] {
        let mut args = vec!["merge", "--json"];
        args.extend(parts.iter().map(|p| p.as_str()));
        let merged = engine(&args);
        assert!(merged.status.success(), "{merged:?}");
        assert_eq!(counts(&stdout(&merged)), counts(&whole), "{parts:?}");
    }

    let fails = |files: &[&str], message: &str| {
        let mut args = vec!["merge"];
        args.extend_from_slice(files);
        let output = engine(&args);
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{files:?}: {err}");
        assert!(err.contains(message), "{files:?}: {err}");
        assert!(output.stdout.is_empty(), "{files:?}");
    };
    fails(&[&p1, &p2], "shard 3/3 is missing");
    fails(&[&p1, &p2, &p3, &p3], "and again in");
    fails(&[&p1, &p2, &p3, &q4], "overlaps shard 1/3");
    fails(&[&q1, &p2, &p3], "shard 4/6 is missing");
    let other = engine(&["perft", "7", "--shard", "3/3", "--json", "--hash-mb", "2"]);
    std::fs::write(path("other.jsonl"), &other.stdout).unwrap();
    fails(&[&p1, &p2, &path("other.jsonl")], "of another count");
    // A count changed in a part (a disk error, an edit) no longer matches its row's seal;
    // a row without one (written before rows were sealed) needs --unsealed.
    let p3_text = std::fs::read_to_string(&p3).unwrap();
    let mut row: serde_json::Value = serde_json::from_str(p3_text.lines().last().unwrap()).unwrap();
    row["leaves"] = (row["leaves"].as_u64().unwrap() + 1).into();
    std::fs::write(path("changed.jsonl"), row.to_string() + "\n").unwrap();
    fails(&[&p1, &p2, &path("changed.jsonl")], "changed or damaged");
    let unsealed: Vec<String> = p3_text
        .lines()
        .map(|line| {
            let mut row: serde_json::Value = serde_json::from_str(line).unwrap();
            row.as_object_mut().unwrap().remove("checksum");
            row.to_string()
        })
        .collect();
    std::fs::write(path("unsealed.jsonl"), unsealed.join("\n") + "\n").unwrap();
    fails(&[&p1, &p2, &path("unsealed.jsonl")], "without a checksum");
    let merged = engine(&[
        "merge",
        "--json",
        "--unsealed",
        &p1,
        &p2,
        &path("unsealed.jsonl"),
    ]);
    assert!(merged.status.success(), "{merged:?}");
    assert_eq!(counts(&stdout(&merged)), counts(&whole));
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

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(engine(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(engine(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("engine.1").is_file());
    let help = String::from_utf8(engine(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("engine-{command}.1")).is_file(),
            "{command}"
        );
    }
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
