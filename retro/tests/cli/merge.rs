//! `retro merge`: shards of check, enumerate and maxmob put back together.

use crate::common::*;

/// Of two UNKNOWN tries at one position, `merge` keeps the one with more processor time
/// where both give it (a try starved by the load has more wall time and less work), else
/// the longer.
#[test]
fn merge_keeps_the_unknown_try_with_more_processor_time() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let starved = write(
        "starved.jsonl",
        r#"{"index":1,"reachable":null,"certificate":"time limit","seconds":100.0,"cpu_seconds":50.0}"#,
    );
    let worked = write(
        "worked.jsonl",
        r#"{"index":1,"reachable":null,"certificate":"processor time limit","seconds":60.0,"cpu_seconds":120.0}"#,
    );
    let older = write(
        "older.jsonl",
        r#"{"index":1,"reachable":null,"certificate":"older","seconds":90.0}"#,
    );
    let kept = |files: [&str; 2]| {
        let output = retro(&["merge", "--json", "--unsealed", files[0], files[1]]);
        assert!(output.status.success(), "{output:?}");
        json_lines(&output)[0]["certificate"].clone()
    };
    for files in [[&starved, &worked], [&worked, &starved]] {
        assert_eq!(kept([files[0], files[1]]), "processor time limit");
    }
    for files in [[&older, &worked], [&worked, &older]] {
        assert_eq!(kept([files[0], files[1]]), "older");
    }
}

/// Shards of one `check` run merge back into its answers; a position answered twice is
/// an error naming both lines; random boards give an estimate.
#[test]
fn merge_puts_shards_back_together() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.obf");
    let sample = retro(&["sample", "--random-boards", "--count", "30", "--seed", "4"]);
    std::fs::write(&file, &sample.stdout).unwrap();
    let mut parts = Vec::new();
    let mut parts_cpu = 0.0;
    for shard in ["1/2", "2/2"] {
        let rows = check_with_varisat(&file, "0.05", &["--quick-nodes", "1", "--shard", shard]);
        parts_cpu += rows.last().unwrap()["cpu_seconds"].as_f64().unwrap();
        let path = dir.path().join(format!("part{}.jsonl", &shard[..1]));
        let text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        std::fs::write(&path, text.join("\n")).unwrap();
        parts.push(path.to_str().unwrap().to_string());
    }
    let plot = dir.path().join("cactus.svg");
    let by_discs = dir.path().join("discs.svg");
    let growth = dir.path().join("estimate.svg");
    let output = retro(&[
        "merge",
        &parts[1],
        &parts[0],
        "--json",
        "--estimate",
        "--plot",
        plot.to_str().unwrap(),
        "--positions",
        file.to_str().unwrap(),
        "--plot-discs",
        by_discs.to_str().unwrap(),
        "--plot-estimate",
        growth.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("all decided"),
        "{svg:.200}"
    );
    // By disc count: every position decided, counted under its disc count.
    let svg = std::fs::read_to_string(&by_discs).unwrap();
    assert!(
        svg.contains("median") && svg.contains("30 positions"),
        "{svg:.300}"
    );
    let svg = std::fs::read_to_string(&growth).unwrap();
    assert!(
        svg.contains("upper end") && svg.contains("(30 boards)"),
        "{svg:.300}"
    );
    // The disc plot needs the positions the rows answer, and all of them.
    let refused = retro(&["merge", &parts[0], &parts[1], "--plot-discs", "x.svg"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let short = dir.path().join("short.obf");
    let five: Vec<&str> = std::str::from_utf8(&sample.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('%'))
        .take(5)
        .collect();
    std::fs::write(&short, five.join("\n") + "\n").unwrap();
    let refused = retro(&[
        "merge",
        &parts[0],
        &parts[1],
        "--positions",
        short.to_str().unwrap(),
        "--plot-discs",
        by_discs.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("the positions file holds 5"));
    let mut merged = json_lines(&output);
    let summary = merged.pop().unwrap();
    let whole = check_with_varisat(&file, "0.05", &["--quick-nodes", "1"]);
    let whole_summary = &whole[whole.len() - 1];
    assert_eq!(summary["positions"], 30);
    for key in ["reachable", "unreachable", "unknown"] {
        assert_eq!(summary[key], whole_summary[key], "{key}");
    }
    let indexes: Vec<u64> = merged
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, (1..=30).collect::<Vec<u64>>());
    // Processor time adds up over the shards.
    assert!(
        (summary["cpu_seconds"].as_f64().unwrap() - parts_cpu).abs() < 1e-9 && parts_cpu > 0.0,
        "{summary}"
    );
    assert_eq!(summary["cpu_seconds_shards"], 2);
    let estimate = &summary["estimate"];
    assert!(
        estimate["positions"][1].as_f64().unwrap() > 0.0,
        "{summary}"
    );
    // The same shard twice.
    let output = retro(&["merge", &parts[0], &parts[0]]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("is also answered at"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `merge` of `check` rows is as strict as `engine merge`: a missing part, a row deleted or
/// changed, a summary missing or changed, rows of another tool or of another file, and an
/// empty file are each a one-line error (exit 2); `--unsealed` and `--mixed-runs` take
/// what they name. `check --done` skips a last line cut off, with a warning.
#[test]
fn merge_of_check_rows_refuses_what_is_not_whole() {
    let dir = tempfile::tempdir().unwrap();
    let sample = |seed: &str, name: &str| {
        let output = retro(&["sample", "--random-boards", "--count", "12", "--seed", seed]);
        let path = dir.path().join(name);
        std::fs::write(&path, &output.stdout).unwrap();
        path
    };
    let file = sample("6", "boards.obf");
    let other = sample("7", "other.obf");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let part = |file: &std::path::Path, shard: &str, name: &str| {
        let rows = check_with_varisat(file, "0.05", &["--quick-nodes", "1", "--shard", shard]);
        let text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        write(name, &(text.join("\n") + "\n"))
    };
    let (p1, p2) = (
        part(&file, "1/2", "p1.jsonl"),
        part(&file, "2/2", "p2.jsonl"),
    );
    assert!(merge(&[], &[p1.clone(), p2.clone()]).status.success());
    let fails = |options: &[&str], files: &[&String], message: &str| {
        let files: Vec<String> = files.iter().map(|f| f.to_string()).collect();
        let output = merge(options, &files);
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{files:?}: {err}");
        assert!(err.contains(message), "{files:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    fails(&[], &[&p1], "6 of the file's 12 positions have no row");
    let second = std::fs::read_to_string(&p2).unwrap();
    let lines: Vec<&str> = second.lines().collect();
    let deleted = write("deleted.jsonl", &lines[1..].join("\n"));
    fails(
        &[],
        &[&p1, &deleted],
        "vouches for 6 rows, 5 come before it",
    );
    let changed = write(
        "changed.jsonl",
        &second.replacen("\"reachable\":false", "\"reachable\":true", 1),
    );
    fails(&[], &[&p1, &changed], "not those it vouches for");
    let cut = write("cut.jsonl", &lines[..6].join("\n"));
    fails(&[], &[&p1, &cut], "cut.jsonl:1: 6 rows without a summary");
    let edited = write(
        "edited.jsonl",
        &second.replace("\"shard\":\"2/2\"", "\"shard\":\"1/2\""),
    );
    fails(&[], &[&p1, &edited], "edited.jsonl:7: a summary changed");
    let foreign = part(&other, "2/2", "foreign.jsonl");
    fails(&[], &[&p1, &foreign], "a part of another run than");
    let empty = write("empty.jsonl", "");
    fails(&[], &[&empty], "no rows");
    let solve = write(
        "solve.jsonl",
        "{\"index\":1,\"empties\":14,\"score\":18,\"nodes\":1,\"seconds\":0.1}\n",
    );
    fails(&[], &[&solve], "solve.jsonl:1: a row of `engine solve`");
    let mixed = merge(&["--mixed-runs"], &[p1.clone(), foreign.clone()]);
    assert!(mixed.status.success(), "{mixed:?}");
    let unsealed = merge(&["--unsealed", "--json"], &[p1.clone(), cut.clone()]);
    assert!(unsealed.status.success(), "{unsealed:?}");
    assert_eq!(json_lines(&unsealed).last().unwrap()["unsealed_rows"], 6);
    // A merged file is sealed as a run's summary: it merges again, and `--done` reads it.
    let merged = merge(&["--json"], &[p1.clone(), p2.clone()]);
    let merged = write("merged.jsonl", &String::from_utf8(merged.stdout).unwrap());
    assert!(merge(&[], std::slice::from_ref(&merged)).status.success());
    // `--done` of a run killed in the middle of a line: that line is asked again.
    let torn = write("torn.jsonl", &second[..second.find("\n").unwrap() + 20]);
    let output = retro(&[
        "check",
        file.to_str().unwrap(),
        "--done",
        &p1,
        &torn,
        "--frontier-discs",
        "8",
        "--sat-solver",
        "varisat",
        "--time-limit",
        "0.05",
        "--quick-nodes",
        "1",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("torn.jsonl:2: skipped"));
    assert_eq!(json_lines(&output).last().unwrap()["positions"], 5);
    // `--done` results of another file are refused.
    let output = retro(&["check", file.to_str().unwrap(), "--done", &foreign]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("results of another run"));
}
