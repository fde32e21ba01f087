//! The `dfpn` binary as a user runs it: output formats, exit codes, one-line errors.

use std::process::{Command, Output};

fn dfpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dfpn"))
        .args(args)
        .output()
        .expect("dfpn runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

fn problems(name: &str) -> String {
    format!("{}/../problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";

#[test]
fn prove_answers_both_ways_in_json() {
    for (t, proven) in [("18", true), ("19", false), ("-64", true)] {
        let output = dfpn(&[
            "prove",
            "--board",
            FFO1,
            "--threshold",
            t,
            "--json",
            "--leaf-empties",
            "8",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = json_lines(&output);
        assert_eq!(rows[0]["proven"], proven, "threshold {t}");
        assert_eq!(rows[0]["threshold"], t.parse::<i64>().unwrap());
        for key in ["nodes", "seconds", "table_peak_bytes"] {
            assert!(rows[0].get(key).is_some(), "{key}");
        }
        // The summary line last, as in every batch command.
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (&rows[1]["summary"], &rows[1]["positions"]),
            (&true.into(), &1.into())
        );
    }
}

#[test]
fn score_checks_the_ffo_answers() {
    let output = dfpn(&["score", &problems("fforum-1-19.obf"), "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json_lines(&output);
    assert_eq!(rows.len(), 20);
    for row in &rows[..19] {
        assert_eq!(row["expected_ok"], true, "{row}");
        for key in ["index", "empties", "score", "best_move", "nodes", "seconds"] {
            assert!(row.get(key).is_some(), "{key}");
        }
    }
    assert_eq!(rows[19]["mismatches"], 0);
    // The table form has a header, one row per position and a total.
    let output = dfpn(&["score", &problems("fforum-1-19.obf"), "--shard", "2/4"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1 + 5 + 1, "{text}");
    assert!(
        text.lines().nth(1).unwrap().trim_start().starts_with("2 "),
        "{text}"
    );
}

#[test]
fn a_wrong_answer_on_the_line_is_reported() {
    let wrong = FFO1.replace("+18", "+16");
    let output = dfpn(&["score", "--board", &wrong]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("MISMATCH"));
}

#[test]
fn wld_in_json() {
    let output = dfpn(&["wld", "--board", FFO1, "--json", "--threads", "2"]);
    assert!(output.status.success());
    let rows = json_lines(&output);
    assert_eq!(rows[0]["wld"], "win");
    assert_eq!(rows[0]["expected_ok"], true);
    for key in ["index", "nodes", "seconds"] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
}

#[test]
fn proofs_are_written_checked_and_tampering_is_caught() {
    let dir = std::env::temp_dir().join(format!("dfpn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.json");
    let path_text = path.to_str().unwrap();
    let output = dfpn(&[
        "prove",
        "--board",
        FFO1,
        "--threshold",
        "18",
        "--leaf-empties",
        "8",
        "--proof",
        path_text,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read_to_string(dir.join("proof.dot"))
        .unwrap()
        .starts_with("digraph"));

    let output = dfpn(&["check-proof", path_text, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(json_lines(&output)[0]["valid"], true);

    let mut proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    proof["nodes"][0]["threshold"] = 20.into();
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, proof.to_string()).unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("invalid proof"),
        "{}",
        stderr(&output)
    );

    // The start position as the only leaf: refused at once (exit 1), not searched for ever.
    let mut proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    proof["nodes"] = serde_json::json!([{
        "position": "---------------------------OX------XO--------------------------- X",
        "threshold": 0,
        "holds": true,
        "children": []
    }]);
    std::fs::write(&tampered, proof.to_string()).unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("a leaf with 60 empties"),
        "{}",
        stderr(&output)
    );

    // A file of another format, or of none: malformed input (exit 2) alike; a device
    // stops at its first byte.
    for format in [
        serde_json::json!("othello-dfpn-proof/9"),
        serde_json::Value::Null,
    ] {
        let mut proof: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        proof["format"] = format.clone();
        std::fs::write(&tampered, proof.to_string()).unwrap();
        let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{format}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("not a proof file"),
            "{}",
            stderr(&output)
        );
    }
    let output = dfpn(&["check-proof", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    // From standard input.
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_dfpn"))
        .args(["check-proof", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));

    std::fs::write(&tampered, "{ not json").unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output).lines().count(), 1);
    assert!(
        stderr(&output).contains("tampered.json:1:"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("dfpn-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_file = dir.join("bad.obf");
    std::fs::write(&bad_file, format!("{FFO1}\nXXXX X;\n")).unwrap();
    // Usage errors: clap's whole message (what is wrong, then the usage).
    for args in [
        vec!["prove", "--board", FFO1, "--threshold", "66"],
        vec!["prove", "--board", FFO1, "--threshold", "x"],
        vec!["wld", "--board", FFO1, "--threads", "0"],
        vec![],
    ] {
        let output = dfpn(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
    // Bad input found after parsing: one line.
    for args in [
        vec!["prove", "--board", "not a board", "--threshold", "0"],
        vec!["score", bad_file.to_str().unwrap()],
        vec!["score", "/no/such/file.obf"],
        vec!["score", "--board", FFO1, "--epsilon", "-1"],
        vec!["score", "--board", FFO1, "--estimate-factor", "0.5"],
        vec![
            "prove",
            bad_file.to_str().unwrap(),
            "--threshold",
            "0",
            "--proof",
            "p.json",
        ],
    ] {
        let output = dfpn(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("dfpn: "), "{err}");
    }
    let output = dfpn(&["score", bad_file.to_str().unwrap()]);
    assert!(
        stderr(&output).contains("bad.obf:2:"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_compares_with_alpha_beta() {
    let output = dfpn(&[
        "bench",
        "--board",
        FFO1,
        "--thresholds",
        "16,18,20",
        "--leaf-empties",
        "6",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json_lines(&output);
    let proven: Vec<bool> = rows[..3]
        .iter()
        .map(|r| r["proven"].as_bool().unwrap())
        .collect();
    assert_eq!(proven, [true, true, false]);
    assert_eq!(rows[3]["disagreements"], 0);
}

/// `--json` on files writes JSON Lines, and the help says so.
/// `compare` puts two runs of one file side by side (here df-pn's with two leaf sizes):
/// the same answers, each position's ratios, a plot; runs of other positions, or answers
/// that differ, are refused (exit 2) or reported (exit 1).
#[test]
fn compare_puts_two_runs_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let file = problems("fforum-1-19.obf");
    let first = dfpn(&["wld", &file, "--json", "--threads", "1"]);
    assert!(first.status.success(), "{first:?}");
    std::fs::write(path("dfpn.jsonl"), &first.stdout).unwrap();
    // The second run: df-pn with small leaves (the engine's own `solve --wld` compares the
    // same way; its binary is not built for this crate's tests).
    let engine = dfpn(&[
        "wld",
        &file,
        "--json",
        "--threads",
        "1",
        "--leaf-empties",
        "12",
    ]);
    assert!(engine.status.success(), "{engine:?}");
    std::fs::write(path("engine.jsonl"), &engine.stdout).unwrap();
    let plot = path("compare.svg");
    let output = dfpn(&[
        "compare",
        "--first",
        &path("dfpn.jsonl"),
        "--second",
        &path("engine.jsonl"),
        "--plot",
        &plot,
    ]);
    assert!(output.status.success(), "{output:?}");
    let table = stdout(&output);
    assert!(
        table.contains("total: 19 positions") && table.contains("0 disagreements"),
        "{table}"
    );
    assert!(std::fs::read_to_string(&plot)
        .unwrap()
        .contains("dfpn wld against dfpn wld"));
    let json = dfpn(&[
        "compare",
        "--first",
        &path("dfpn.jsonl"),
        "--second",
        &path("engine.jsonl"),
        "--json",
    ]);
    let rows = json_lines(&json);
    assert_eq!(rows.len(), 20);
    assert!(rows[..19]
        .iter()
        .all(|r| r["agree"] == true && r["time_ratio"].is_f64()));
    // Another file's run.
    let other = dfpn(&[
        "wld",
        &problems("fforum-20-39.obf"),
        "--json",
        "--threads",
        "1",
    ]);
    std::fs::write(path("other.jsonl"), &other.stdout).unwrap();
    let output = dfpn(&[
        "compare",
        "--first",
        &path("dfpn.jsonl"),
        "--second",
        &path("other.jsonl"),
    ]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("asked other positions"),
        "{}",
        stderr(&output)
    );
    // An answer that differs (rows taken without their seals, as a hand-edited file).
    let edited: Vec<String> = stdout(&first)
        .lines()
        .map(|line| {
            let mut row: serde_json::Value = serde_json::from_str(line).unwrap();
            row.as_object_mut().unwrap().remove("checksum");
            if row["index"] == 3 {
                row["wld"] = if row["wld"] == "win" { "loss" } else { "win" }.into();
            }
            row.to_string()
        })
        .collect();
    std::fs::write(path("edited.jsonl"), edited.join("\n") + "\n").unwrap();
    let output = dfpn(&[
        "compare",
        "--unsealed",
        "--first",
        &path("edited.jsonl"),
        "--second",
        &path("engine.jsonl"),
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(stdout(&output).contains("DIFFERENT"), "{}", stdout(&output));
}

#[test]
fn json_lines_are_named_in_the_help() {
    for command in ["score", "wld"] {
        let help = stdout(&dfpn(&[command, "--help"]));
        assert!(help.contains("JSON Lines"), "dfpn {command} --help: {help}");
    }
}

/// `wld` gives a move that keeps the win (FFO #1 and #2 are wins; their lines list the
/// winning moves with their scores).
#[test]
fn wld_gives_a_keeping_move() {
    let text = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    for line in text.lines().take(2) {
        let output = dfpn(&["wld", "--board", line, "--json"]);
        assert!(output.status.success(), "{output:?}");
        let row = &json_lines(&output)[0];
        assert_eq!(row["wld"], "win");
        let mv = row["best_move"].as_str().unwrap().to_uppercase();
        let score = line.split(&format!("{mv}:")).nth(1).expect("a listed move");
        assert!(
            score.starts_with('+') && !score.starts_with("+0"),
            "{mv} in {line}"
        );
    }
}

/// `score --proof DIR` and `wld --proof DIR` write a proof per position that
/// `check-proof` verifies: an exact score by its two halves, a win or loss by one; an
/// exact-score proof that claims another score, or with a half missing, is invalid.
#[test]
fn score_and_wld_proofs_for_a_whole_file() {
    let dir = std::env::temp_dir().join(format!("dfpn-cli-exact-{}", std::process::id()));
    let file = dir.join("p40-41.obf");
    std::fs::create_dir_all(&dir).unwrap();
    let lines = std::fs::read_to_string(problems("fforum-40-59.obf")).unwrap();
    let two: Vec<&str> = lines.lines().take(2).collect();
    std::fs::write(&file, two.join("\n")).unwrap();
    let file = file.to_str().unwrap();
    let scores = dir.join("scores");
    let output = dfpn(&["score", file, "--proof", scores.to_str().unwrap(), "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json_lines(&output);
    for (row, score) in rows.iter().zip(["+38", "+0"]) {
        assert!(row["proof_nodes"].as_u64().unwrap() > 1, "{row}");
        let output = dfpn(&["check-proof", row["proof"].as_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains(&format!("scores exactly {score}")));
    }
    let first = scores.join("1.json");
    let proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&first).unwrap()).unwrap();
    for (key, value) in [
        ("score", serde_json::json!(36)),
        ("below", serde_json::Value::Null),
    ] {
        let mut tampered = proof.clone();
        tampered[key] = value;
        let path = dir.join(format!("tampered-{key}.json"));
        std::fs::write(&path, tampered.to_string()).unwrap();
        let output = dfpn(&["check-proof", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{key}");
        assert!(stderr(&output).contains("invalid proof"), "{key}");
    }
    // wld: #40 is a win (one half), #41 a draw (the exact score 0).
    let wld = dir.join("wld");
    let output = dfpn(&["wld", file, "--proof", wld.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    for (index, claim) in [(1, "scores at least 2"), (2, "scores exactly +0")] {
        let path = wld.join(format!("{index}.json"));
        let output = dfpn(&["check-proof", path.to_str().unwrap()]);
        assert!(stdout(&output).contains(claim), "{}", stdout(&output));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(dfpn(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(dfpn(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("dfpn.1").is_file());
    let help = String::from_utf8(dfpn(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("dfpn-{command}.1")).is_file(),
            "{command}"
        );
    }
}
