//! `retro enumerate`: counts per ply, shards, memory, damaged levels.

use crate::common::*;

#[test]
fn enumerate_json_per_ply() {
    let output = retro(&["enumerate", "--plies", "5", "--canonical", "--json"]);
    assert!(output.status.success());
    let rows = json_lines(&output);
    let positions: Vec<u64> = rows
        .iter()
        .map(|r| r["positions"].as_u64().unwrap())
        .collect();
    assert_eq!(positions, [1, 4, 12, 54, 236, 1288]);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["ply"], i as u64);
        assert!(row["canonical"].as_u64().unwrap() <= positions[i]);
        assert!(row.get("seconds").is_some());
    }
}

/// `enumerate --first-passes FILE`: per ply a comment with the count, then the positions
/// as OBF lines, each one whose side to move must pass after ply + 4 discs; a file that
/// cannot be written is a one-line error.
#[test]
fn enumerate_writes_the_first_passes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("first-passes.obf");
    let output = retro(&[
        "enumerate",
        "--plies",
        "9",
        "--first-passes",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("% ply 7: 0 positions\n% ply 8: 24 positions\n"),
        "{text}"
    );
    assert!(text.ends_with("% ply 9: 0 positions\n"), "{text}");
    let positions = engine::obf::parse_text("first-passes.obf", &text).unwrap();
    assert_eq!(positions.len(), 24);
    for (_, obf) in positions {
        let board = obf.position.board;
        assert_eq!((board.player | board.opponent).count_ones(), 12);
        assert_eq!(obf.position.side, engine::Color::Black);
        assert!(board.moves() == 0 && board.pass().moves() != 0, "{obf}");
    }
    let missing = dir.path().join("no-such-dir").join("f.obf");
    let output = retro(&[
        "enumerate",
        "--plies",
        "2",
        "--first-passes",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("f.obf") && err.lines().count() == 1, "{err}");
}

/// `enumerate --shard I/N --levels DIR` runs (the last level split, the levels below kept
/// in DIR and shared) merged by `merge` give the whole run's counts; a missing shard, or a
/// changed row, is an error.
#[test]
fn enumerate_shards_merge_into_the_whole_level() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    let levels = levels.to_str().unwrap();
    let whole = retro(&["enumerate", "--plies", "7", "--canonical", "--json"]);
    let mut parts = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let args = [
            "enumerate",
            "--plies",
            "7",
            "--canonical",
            "--json",
            "--shard",
            &shard,
            "--levels",
            levels,
        ];
        let output = retro(&args);
        assert!(output.status.success(), "{output:?}");
        let rows = json_lines(&output);
        assert_eq!(rows.last().unwrap()["shard"], shard.as_str());
        // The first shard builds and keeps plies 1-6; the others start from ply 6.
        assert_eq!(rows.len(), if i == 1 { 8 } else { 2 }, "{rows:?}");
        parts.push(write_part(dir.path(), i, &output));
    }
    let merged = json_lines(&merge(&["--json"], &parts));
    let last = merged.last().unwrap();
    let expected = json_lines(&whole).pop().unwrap();
    assert_eq!(
        (
            &last["ply"],
            &last["positions"],
            &last["canonical"],
            &last["shards"]
        ),
        (
            &7.into(),
            &expected["positions"],
            &expected["canonical"],
            &3.into()
        )
    );
    let missing = retro(&["merge", &parts[0], &parts[1]]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("shard 3/3 is missing"));
    // A count changed in a part no longer matches its row's seal.
    let text = std::fs::read_to_string(&parts[2]).unwrap();
    let changed = dir.path().join("changed.jsonl");
    std::fs::write(
        &changed,
        text.replacen("\"positions\":", "\"positions\":1", 1),
    )
    .unwrap();
    let changed = retro(&["merge", &parts[0], &parts[1], changed.to_str().unwrap()]);
    assert_eq!(changed.status.code(), Some(2), "{changed:?}");
    assert!(String::from_utf8_lossy(&changed.stderr).contains("changed or damaged"));
}

#[test]
fn enumerate_table_by_discs() {
    let output = retro(&["enumerate", "--discs", "6", "--memory-mb", "2"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1 + 3, "{text}");
    assert!(
        text.lines().last().unwrap().trim_start().starts_with("6 "),
        "{text}"
    );
}

/// Memory stays within the budget plus the floor the help states (100 MiB), here at the
/// smallest budget, where the floor dominates: 11,922,442 positions spilled to disk.
#[test]
fn enumerate_memory_is_the_budget_plus_the_stated_floor() {
    let output = retro(&["enumerate", "--plies", "10", "--memory-mb", "2", "--json"]);
    assert!(output.status.success());
    let rows = json_lines(&output);
    let last = rows.last().unwrap();
    assert_eq!(last["positions"], 11_922_442);
    let peak = last["peak_memory_bytes"].as_u64().unwrap();
    assert!(peak < (2 + 100) << 20, "peak {peak} bytes");
}

/// `enumerate --levels DIR` checks each saved level it starts from: a level file damaged
/// since (a changed byte, a record written twice) is a one-line error naming it (exit 2),
/// never a count; removed, the level is built again and the count is the published one.
#[test]
fn enumerate_refuses_a_damaged_level() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    let levels = levels.to_str().unwrap();
    let run = |plies: &str| retro(&["enumerate", "--plies", plies, "--levels", levels, "--json"]);
    assert!(run("6").status.success());
    let keys = dir.path().join("levels/plies-6-black.keys");
    let original = std::fs::read(&keys).unwrap();
    let mut changed = original.clone();
    changed[100] ^= 0x04;
    let mut twice = original.clone();
    twice[32..48].copy_from_slice(&original[16..32]);
    for damaged in [changed, twice] {
        std::fs::write(&keys, &damaged).unwrap();
        let output = run("7");
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(output.stdout.is_empty(), "no count printed: {output:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains("plies-6-black.keys: damaged"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for file in std::fs::read_dir(dir.path().join("levels")).unwrap() {
        let path = file.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("plies-6")
        {
            std::fs::remove_file(path).unwrap();
        }
    }
    let rows = json_lines(&run("7"));
    assert_eq!(rows.last().unwrap()["positions"], 42614);
}
