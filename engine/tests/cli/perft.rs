//! `engine perft`: the published counts, boards, shards and their merge.

use crate::common::*;

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
