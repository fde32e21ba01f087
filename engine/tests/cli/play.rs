//! `engine play` and `engine match`: games in the terminal and between evaluations.

use crate::common::*;

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

/// `--games`: every game in GGF, each opening's two games with the colours swapped and
/// the result black's; the file gives positions to `solve --empties`.
#[test]
fn match_writes_its_games_for_solve() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.ggf");
    let games = games.to_str().unwrap();
    let args = [
        "match",
        "--openings",
        "2",
        "--depth",
        "2",
        "--first-depth",
        "3",
    ];
    let output = engine(&[&args[..], &["--json", "--games", games]].concat());
    assert!(output.status.success(), "{output:?}");
    let summary: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    let text = std::fs::read_to_string(games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let first = "trained depth 3 probcut 1.5 sigma";
    let second = "hand depth 2 probcut 1.5 sigma";
    assert!(
        lines[0].contains(&format!("PB[{first}]PW[{second}]")),
        "{text}"
    );
    assert!(
        lines[1].contains(&format!("PB[{second}]PW[{first}]")),
        "{text}"
    );
    // Black's results (empty squares to the winner), signed for the first player, are the
    // match's wins and losses.
    let result = |line: &str| -> i64 {
        line.split("RE[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = [
        result(lines[0]),
        -result(lines[1]),
        result(lines[2]),
        -result(lines[3]),
    ];
    let count = |f: fn(&i64) -> bool| first.iter().filter(|r| f(r)).count();
    assert_eq!(
        count(|r| *r > 0),
        summary["wins"].as_u64().unwrap() as usize
    );
    assert_eq!(
        count(|r| *r < 0),
        summary["losses"].as_u64().unwrap() as usize
    );
    let solved = engine(&["solve", games, "--empties", "10", "--json"]);
    assert!(solved.status.success(), "{solved:?}");
    assert_eq!(stdout(&solved).lines().count(), 4 + 1);
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
