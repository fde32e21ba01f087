//! `dfpn score` and `dfpn wld`: the FFO answers, a wrong one reported, the keeping move.

use crate::common::*;

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

/// `--time-limit`: the start position (60 empties) is left unknown at the limit and the
/// run goes on to FFO #1; `compare` lists the unknown position but keeps it out of the
/// totals. Without the limit the run would not end: it is killed after a minute, failing.
#[test]
fn a_position_over_the_time_limit_is_unknown_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let start = "---------------------------OX------XO--------------------------- X;";
    std::fs::write(path("two.obf"), format!("{start}\n{FFO1}\n")).unwrap();
    let runs: Vec<String> = ["first", "second"]
        .iter()
        .map(|name| {
            // coreutils' `timeout` ends the run after a minute (exit 124) if the limit did not.
            let output = std::process::Command::new("timeout")
                .args(["60", env!("CARGO_BIN_EXE_dfpn"), "wld", &path("two.obf")])
                .args("--time-limit 0.5 --json --threads 1 --hash-mb 16".split(' '))
                .output()
                .unwrap();
            assert!(output.status.success(), "{output:?}");
            let rows = json_lines(&output);
            assert_eq!(rows.len(), 3);
            assert_eq!(
                (&rows[0]["unknown"], &rows[0]["wld"]),
                (&true.into(), &serde_json::Value::Null)
            );
            assert!(rows[0]["seconds"].as_f64().unwrap() >= 0.5);
            assert_eq!(rows[1]["wld"], "win");
            assert_eq!(
                (&rows[2]["positions"], &rows[2]["unknown"]),
                (&1.into(), &1.into())
            );
            std::fs::write(path(name), &output.stdout).unwrap();
            path(name)
        })
        .collect();
    let output = dfpn(&["compare", "--first", &runs[0], "--second", &runs[1]]);
    assert!(output.status.success(), "{output:?}");
    let table = stdout(&output);
    assert!(table.contains("unknown: over a time limit"), "{table}");
    assert!(
        table.contains("total: 1 positions") && table.contains("1 left out"),
        "{table}"
    );
}
