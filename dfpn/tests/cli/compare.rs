//! `dfpn compare`: two runs side by side.

use crate::common::*;

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
