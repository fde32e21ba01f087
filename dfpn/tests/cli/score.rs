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
