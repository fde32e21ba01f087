//! `retro maxmob`: by ply, followed lines, kept levels, shards, the beam.

use crate::common::*;

#[test]
fn maxmob_json() {
    let output = retro(&["maxmob", "--plies", "4", "--json"]);
    assert!(output.status.success());
    let row = &json_lines(&output)[0];
    assert_eq!(row["plies"], 4);
    let witness = row["witness"].as_str().unwrap();
    let game = engine::Game::replay(engine::Position::START, witness).unwrap();
    assert_eq!(
        game.last().board.mobility() as u64,
        row["mobility"].as_u64().unwrap()
    );
}

/// `--by-ply`: one row per ply, the maximum after exactly that many plies with a witness of
/// exactly that length (the values as a plain search finds them: 4, 3, 5, 6, 9, 11).
#[test]
fn maxmob_by_ply_rows() {
    let output = retro(&["maxmob", "--plies", "5", "--by-ply", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let rows = json_lines(&output);
    let maxima: Vec<u64> = rows.iter().map(|r| r["max"].as_u64().unwrap()).collect();
    assert_eq!(maxima, [4, 3, 5, 6, 9, 11]);
    for (ply, row) in rows.iter().enumerate() {
        assert_eq!(row["ply"], ply);
        assert_eq!(row["side"], if ply % 2 == 0 { "black" } else { "white" });
        assert_eq!(row["impossible"], maxima[ply] + 1);
        let game = engine::Game::replay(engine::Position::START, row["witness"].as_str().unwrap())
            .unwrap();
        assert_eq!(game.moves.len(), ply);
        assert_eq!(game.last().board.mobility() as u64, maxima[ply]);
    }
}

/// `--enumerate-to`: the plies beyond it followed depth-first give the same maxima, each
/// row saying how its positions were covered; more than 8 plies beyond it is refused.
#[test]
fn maxmob_by_ply_followed_beyond_the_enumeration() {
    let output = retro(&[
        "maxmob",
        "--plies",
        "6",
        "--by-ply",
        "--enumerate-to",
        "3",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let rows = json_lines(&output);
    let maxima: Vec<u64> = rows.iter().map(|r| r["max"].as_u64().unwrap()).collect();
    assert_eq!(maxima, [4, 3, 5, 6, 9, 11, 12]);
    for (ply, row) in rows.iter().enumerate() {
        assert_eq!(row["positions"].is_null(), ply > 3, "{row}");
        assert_eq!(row["lines"].is_null(), ply <= 3, "{row}");
        let game = engine::Game::replay(engine::Position::START, row["witness"].as_str().unwrap())
            .unwrap();
        assert_eq!(game.moves.len(), ply);
        assert_eq!(game.last().board.mobility() as u64, maxima[ply]);
    }
    let output = retro(&["maxmob", "--plies", "12", "--by-ply", "--enumerate-to", "3"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let output = retro(&["maxmob", "--plies", "6", "--enumerate-to", "3"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

/// `--levels DIR`: the enumerated levels are kept there and read back by the next run
/// (their files left as they were), also from `enumerate --levels`, and every run gives
/// the rows of one that enumerates in memory.
#[test]
fn maxmob_keeps_and_reads_the_levels() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    let levels = levels.to_str().unwrap();
    let args = [
        "maxmob",
        "--plies",
        "7",
        "--by-ply",
        "--enumerate-to",
        "5",
        "--json",
    ];
    let rows = |extra: &[&str]| {
        let output = retro(&[&args[..], extra].concat());
        assert!(output.status.success(), "{output:?}");
        let mut rows = json_lines(&output);
        for row in &mut rows {
            // The time, and the seal that covers it.
            row.as_object_mut().unwrap().remove("seconds");
            row.as_object_mut().unwrap().remove("checksum");
        }
        rows
    };
    // When a kept level's file was last written.
    let written = |dir: &str, file: &str| {
        let path = std::path::Path::new(dir).join(file);
        std::fs::metadata(path).unwrap().modified().unwrap()
    };
    let in_memory = rows(&[]);
    assert_eq!(rows(&["--levels", levels]), in_memory);
    let first = written(levels, "plies-5-black.keys");
    assert_eq!(rows(&["--levels", levels]), in_memory);
    assert_eq!(written(levels, "plies-5-black.keys"), first);
    let enumerated = dir.path().join("enumerated");
    let enumerated = enumerated.to_str().unwrap();
    let output = retro(&["enumerate", "--plies", "5", "--levels", enumerated]);
    assert!(output.status.success(), "{output:?}");
    let first = written(enumerated, "plies-5-white.keys");
    assert_eq!(rows(&["--levels", enumerated]), in_memory);
    assert_eq!(written(enumerated, "plies-5-white.keys"), first);
}

/// `--shard I/N` with `--enumerate-to`: each part's rows beyond the enumeration are lower
/// bounds, the enumerated plies' rows come with part 1 only; `merge` puts the parts back
/// into the whole run's rows (same maxima, positions and lines), also from parts of
/// splits that nest; a missing or repeated part, parts with the whole run, or parts whose
/// positions followed do not add up to the level followed from, is refused.
#[test]
fn maxmob_shards_merge_into_the_whole_curve() {
    let curve = [
        "maxmob",
        "--plies",
        "7",
        "--by-ply",
        "--enumerate-to",
        "4",
        "--json",
    ];
    let whole_run = retro(&curve);
    let whole = json_lines(&whole_run);
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let output = retro(&[&curve[..], &["--shard", &shard]].concat());
        assert!(output.status.success(), "{output:?}");
        let rows = json_lines(&output);
        // The enumerated plies' rows come with part 1 only.
        let enumerated_rows = rows.iter().filter(|r| r["ply"].as_u64() <= Some(4)).count();
        assert_eq!(enumerated_rows, if i == 1 { 5 } else { 0 }, "part {i}");
        for row in rows.iter().filter(|r| r["ply"].as_u64() > Some(4)) {
            assert_eq!(row["shard"], shard.as_str());
            assert!(row["max"].is_null() && row["impossible"].is_null(), "{row}");
        }
        parts.push(write_part(dir.path(), i, &output));
    }
    let merged = json_lines(&merge(&["--json"], &parts));
    assert_eq!(merged.len(), whole.len());
    for (m, w) in merged.iter().zip(&whole) {
        for field in [
            "ply",
            "max",
            "impossible",
            "positions",
            "from_positions",
            "lines",
        ] {
            assert_eq!(m[field], w[field], "{field}: {m} against {w}");
        }
        assert!(m["shard"].is_null());
    }
    let whole_file = write_part(dir.path(), 0, &whole_run);
    let mixed = [&parts[..], &[whole_file]].concat();
    // A part that followed one position fewer than its partition of ply 4 has (as from a
    // damaged copy of the level) does not add up to ply 4's row; edited, its rows no longer
    // match their seals.
    let short = dir.path().join("short.jsonl").to_str().unwrap().to_string();
    let text = std::fs::read_to_string(&parts[2]).unwrap();
    let rows: Vec<String> = text
        .lines()
        .map(|line| {
            let mut row: serde_json::Value = serde_json::from_str(line).unwrap();
            row["from_positions"] = (row["from_positions"].as_u64().unwrap() - 1).into();
            row.to_string()
        })
        .collect();
    std::fs::write(&short, rows.join("\n") + "\n").unwrap();
    let short = [&parts[..2], std::slice::from_ref(&short)].concat();
    let output = merge(&[], &short);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("changed or damaged"), "{message}");
    // Taken without seals, what the rows say is still checked.
    let unsealed: Vec<String> = rows
        .iter()
        .map(|line| {
            let mut row: serde_json::Value = serde_json::from_str(line).unwrap();
            row.as_object_mut().unwrap().remove("checksum");
            row.to_string()
        })
        .collect();
    std::fs::write(&short[2], unsealed.join("\n") + "\n").unwrap();
    let output = merge(&[], &short);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("without a checksum"));
    let output = merge(&["--unsealed"], &short);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("positions of ply 4, which has"),
        "{message}"
    );
    for bad in [&parts[..2], &[&parts[..], &parts[2..]].concat(), &mixed] {
        let output = merge(&[], bad);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
    }
    // Splits that nest: 1/2 is 1/4 and 3/4, so 1/2, 2/4 and 4/4 cover every position
    // once; with 3/4 as well, or without 4/4, they do not.
    let nested: Vec<_> = ["1/2", "2/4", "4/4", "3/4"]
        .iter()
        .enumerate()
        .map(|(k, shard)| {
            let output = retro(&[&curve[..], &["--shard", shard]].concat());
            assert!(output.status.success(), "{output:?}");
            write_part(dir.path(), 10 + k, &output)
        })
        .collect();
    let merged = json_lines(&merge(&["--json"], &nested[..3]));
    assert_eq!(merged.len(), whole.len());
    for (m, w) in merged.iter().zip(&whole) {
        for field in ["ply", "max", "from_positions", "lines"] {
            assert_eq!(m[field], w[field], "{field}: {m} against {w}");
        }
    }
    for bad in [&nested[..], &nested[..2]] {
        let output = merge(&[], bad);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(message.trim().lines().count(), 1, "{message}");
    }
}

/// `--beam`: rows exact (with their counts) up to the first ply cut to the width, lower
/// bounds after (max and impossible null, the width named), every witness a game of its
/// ply that `merge` replays to its count.
#[test]
fn maxmob_beam_rows() {
    let output = retro(&[
        "maxmob", "--plies", "8", "--by-ply", "--beam", "100", "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let rows = json_lines(&output);
    assert_eq!(rows.len(), 9);
    let exact = json_lines(&retro(&["maxmob", "--plies", "5", "--by-ply", "--json"]));
    for (row, whole) in rows.iter().zip(&exact) {
        for field in ["ply", "max", "lower", "positions"] {
            assert_eq!(row[field], whole[field], "{field}: {row}");
        }
    }
    for row in &rows[6..] {
        assert!(row["max"].is_null() && row["impossible"].is_null(), "{row}");
        assert_eq!(row["beam"], 100);
        assert!(row["certificate"]
            .as_str()
            .unwrap()
            .starts_with("lower bound"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write_part(dir.path(), 0, &output);
    let merged = merge(&["--json"], &[file]);
    assert!(merged.status.success(), "{merged:?}");
    assert_eq!(json_lines(&merged).len(), 9);
}

/// The table output ends with a newline (a shell prompt does not land on the diagram).
#[test]
fn maxmob_table_ends_with_a_newline() {
    let output = retro(&["maxmob", "--plies", "2"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("within 2 plies: mobility"), "{text}");
    assert!(text.ends_with('\n'), "{text:?}");
}
