//! The `retro` binary as a user runs it: output formats, exit codes, one-line errors.

use std::process::{Command, Output};

fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .output()
        .expect("retro runs")
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Writes a shard's output to `dir/part-I.jsonl`; the path.
fn write_part(dir: &std::path::Path, i: usize, output: &Output) -> String {
    let path = dir.join(format!("part-{i}.jsonl"));
    std::fs::write(&path, &output.stdout).unwrap();
    path.to_str().unwrap().to_string()
}

/// The JSON Lines of `rows`, each summary sealed again over the rows before it as they now
/// are: what a run that gave these answers would have written.
fn reseal(rows: &[serde_json::Value]) -> String {
    use engine::seal;
    let mut digest = seal::RowDigest::default();
    let mut lines = Vec::new();
    for row in rows {
        let mut row = row.clone();
        if row["summary"] == true {
            let object = row.as_object_mut().unwrap();
            std::mem::take(&mut digest).write_into(object);
            seal::seal(object);
        } else {
            digest.add(&row);
        }
        lines.push(row.to_string());
    }
    lines.join("\n")
}

/// `retro merge` with `options` of the files `parts`.
fn merge(options: &[&str], parts: &[String]) -> Output {
    let mut args = vec!["merge"];
    args.extend(options);
    args.extend(parts.iter().map(String::as_str));
    retro(&args)
}

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

/// Usage errors: clap's whole message (what is wrong, then the usage), exit status 2.
#[test]
fn bad_arguments_show_the_usage_and_exit_2() {
    // Without arguments, the whole help: every way to ask (--plies or --discs).
    let bare = retro(&["enumerate"]);
    let help = String::from_utf8_lossy(&bare.stderr);
    assert!(
        help.contains("--plies") && help.contains("--discs"),
        "{help}"
    );
    for args in [
        vec!["enumerate"],
        vec!["enumerate", "--plies", "61"],
        vec!["enumerate", "--plies", "3", "--discs", "6"],
        vec!["enumerate", "--discs", "12", "--first-passes", "f.obf"],
        vec!["maxmob", "--plies", "x"],
        vec![],
    ] {
        let output = retro(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
}

#[test]
fn reach_answers_with_a_witness_or_no() {
    let output = retro(&[
        "reach",
        "--board",
        "f5d6c3d3c4f4",
        "--frontier-discs",
        "6",
        "--json",
    ]);
    assert!(output.status.success());
    let row = &json_lines(&output)[0];
    assert_eq!(row["reachable"], true);
    let witness = row["witness"].as_str().unwrap();
    let reached = engine::Game::replay(engine::Position::START, witness).unwrap();
    let given = engine::Game::replay(engine::Position::START, "f5d6c3d3c4f4").unwrap();
    assert_eq!(reached.last(), given.last());
    for key in ["nodes", "seconds"] {
        assert!(row.get(key).is_some(), "{key}");
    }

    // The start position with white to move.
    let white_start = "---------------------------OX------XO--------------------------- O";
    let output = retro(&["reach", "--board", white_start, "--frontier-discs", "6"]);
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("UNREACHABLE"));
}

#[test]
fn check_a_csv_of_candidates() {
    let dir = std::env::temp_dir().join(format!("retro-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("c.csv");
    std::fs::write(&csv, "player,opponent\n0x0000341c10261000,0x006a4a620a406e00\n0x0008640a38240000,0x00760250465a5200\n").unwrap();
    let output = retro(&[
        "check",
        csv.to_str().unwrap(),
        "--frontier-discs",
        "8",
        "--json",
    ]);
    assert!(output.status.success());
    let rows = json_lines(&output);
    assert_eq!(rows.len(), 3);
    assert!(rows[..2]
        .iter()
        .all(|r| r["reachable"] == false && r["witness"].is_null()));
    assert_eq!(rows[2]["unreachable"], 2);

    std::fs::write(&csv, "player,opponent\n0x1,0x2\n0x1;0x2\n").unwrap();
    let output = retro(&["check", csv.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("c.csv:3:1:"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `retro reach` on `board` by SAT alone (`solver`; the backward search given no nodes).
fn reach_by_sat<'a>(board: &'a str, solver: &'a str) -> Vec<&'a str> {
    let sat_only = ["--quick-nodes", "0", "--backward-nodes", "0"];
    let args = [
        "reach",
        "--board",
        board,
        "--frontier-discs",
        "8",
        "--sat-solver",
        solver,
    ];
    [&args[..], &sat_only].concat()
}

/// A position of a random game (20 discs), decided by SAT alone (varisat, the backward
/// search given no nodes, the whole question first): every JSON field, and a witness that
/// replays to it.
#[test]
fn reach_by_sat_in_json() {
    let position = retro::sample::random_game_positions(20, 1, 4)[0];
    let obf = engine::Obf::new(position).to_string();
    let output = retro(
        &[
            &reach_by_sat(&obf, "varisat")[..],
            &["--json", "--whole-first"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let row = &json_lines(&output)[0];
    assert_eq!(row["reachable"], true);
    assert_eq!(row["method"], "sat");
    assert!(row["solver"].as_str().unwrap().starts_with("varisat"));
    for key in ["certificate", "nodes", "seconds"] {
        assert!(row.get(key).is_some(), "{key}");
    }
    let game = engine::Game::replay(engine::Position::START, row["witness"].as_str().unwrap());
    assert_eq!(*game.unwrap().last(), position);
}

/// `retro check FILE --json` with a small frontier, varisat and `time_limit` seconds per
/// position (plus `extra`): its rows, the summary last.
fn check_with_varisat(
    file: &std::path::Path,
    time_limit: &str,
    extra: &[&str],
) -> Vec<serde_json::Value> {
    let args = [
        "check",
        file.to_str().unwrap(),
        "--frontier-discs",
        "8",
        "--sat-solver",
        "varisat",
        "--time-limit",
        time_limit,
        "--json",
    ];
    let output = retro(&[&args[..], extra].concat());
    assert!(output.status.success(), "{output:?}");
    json_lines(&output)
}

/// A file with a reachable position, a refuted one and one left undecided by its time
/// limit: three answers, each saying how it was shown, and the totals.
#[test]
fn check_reports_method_certificate_and_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    let deep = retro::sample::random_game_positions(56, 1, 2)[0];
    let lines = [
        "---------------------------OX------XO--------------------------- X".to_string(),
        "---------------------------XO------OX--------------------------- X".to_string(),
        engine::Obf::new(deep).to_string(),
    ];
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let mut rows = check_with_varisat(&file, "0.5", &[]);
    let summary = rows.pop().unwrap();
    rows.sort_by_key(|r| r["index"].as_u64());
    assert_eq!(rows[0]["reachable"], true);
    assert_eq!(rows[0]["witness"], "");
    assert_eq!(rows[1]["reachable"], false);
    assert_eq!(rows[1]["method"], "refutation");
    assert!(rows[1]["certificate"]
        .as_str()
        .unwrap()
        .contains("never have flipped"));
    assert!(rows[2]["reachable"].is_null());
    assert_eq!(rows[2]["certificate"], "time limit");
    // A row left UNKNOWN says how much processor time its race had: some, though on a
    // loaded machine less than its half second of wall time. The rows' times are parts
    // of the run's.
    let cpu = |row: &serde_json::Value| row["cpu_seconds"].as_f64().unwrap();
    assert!(cpu(&rows[2]) > 0.0, "{}", rows[2]);
    let rows_cpu: f64 = rows.iter().map(cpu).sum();
    assert!(rows_cpu <= cpu(&summary) + 0.01, "{rows_cpu} {summary}");
    assert_eq!(
        (
            &summary["reachable"],
            &summary["unreachable"],
            &summary["unknown"]
        ),
        (&1.into(), &1.into(), &1.into())
    );
}

/// A SAT solver that cannot be run: one line naming it, exit 2 (not a run that retries it
/// for ever).
#[test]
fn a_missing_solver_is_one_line_and_exit_2() {
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(reach_by_sat(&obf, "/no/such/solver"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("retro still runs after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("cannot run \"/no/such/solver\""), "{err}");
}

/// `--cpu-limit` counts what a solver spends while it runs: a stand-in solver that spins
/// is stopped after a second of it, long before the wall clock's limit, and the row says
/// which limit it was and shows that second; `--done` asks it again only with a larger
/// limit. A solver that waits spends nothing, and the wall clock stops it.
#[test]
fn the_processor_time_limit_counts_a_running_solver() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    std::fs::write(&file, engine::Obf::new(position).to_string() + "\n").unwrap();
    let spin = dir.path().join("spin.sh");
    std::fs::write(&spin, "while :; do :; done\n").unwrap();
    let wait = dir.path().join("wait.sh");
    std::fs::write(&wait, "sleep 100; true\n").unwrap();
    let check = |solver: &std::path::Path, cpu_limit: &str, done: &[&str]| {
        let solver = format!("sh {}", solver.display());
        let mut args = vec![
            "check",
            file.to_str().unwrap(),
            "--frontier-discs",
            "8",
            "--quick-nodes",
            "0",
            "--backward-nodes",
            "0",
            "--threads",
            "1",
            "--sat-solver",
            &solver,
            "--trust-unsat",
            "--cpu-limit",
            cpu_limit,
            "--time-limit",
            "8",
            "--json",
        ];
        args.extend(done);
        let output = retro(&args);
        assert!(output.status.success(), "{output:?}");
        let mut rows = json_lines(&output);
        rows.pop();
        rows
    };
    let rows = check(&spin, "1", &[]);
    let row = &rows[0];
    assert!(row["reachable"].is_null(), "{row}");
    assert_eq!(row["certificate"], "processor time limit", "{row}");
    assert_eq!(row["cpu_limit"], 1.0, "{row}");
    let (seconds, cpu) = (
        row["seconds"].as_f64().unwrap(),
        row["cpu_seconds"].as_f64().unwrap(),
    );
    assert!(cpu >= 1.0 && seconds < 8.0, "{row}");
    // `--done` does not ask again what this limit already left UNKNOWN, but a larger
    // one does.
    let first = dir.path().join("first.jsonl");
    std::fs::write(&first, row.to_string()).unwrap();
    let done = ["--done", first.to_str().unwrap()];
    assert_eq!(check(&spin, "1", &done).len(), 0);
    let rows = check(&spin, "1.5", &done);
    assert_eq!(rows[0]["cpu_limit"], 1.5, "{rows:?}");
    let rows = check(&wait, "1", &[]);
    let row = &rows[0];
    assert_eq!(row["certificate"], "time limit", "{row}");
    assert!(row["cpu_limit"].is_null(), "{row}");
    assert!(row["seconds"].as_f64().unwrap() >= 8.0, "{row}");
}

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

/// `sample --random-boards` writes a file `check` reads: one row per board, and the
/// placement-order rule refutes many of them without search.
#[test]
fn random_boards_are_checked_and_most_refuted_cheaply() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.obf");
    let sample = retro(&["sample", "--random-boards", "--count", "200", "--seed", "3"]);
    assert!(sample.status.success(), "{sample:?}");
    std::fs::write(&file, &sample.stdout).unwrap();
    let proofs = dir.path().join("proofs");
    let mut rows = check_with_varisat(
        &file,
        "0.05",
        &["--quick-nodes", "1", "--proof", proofs.to_str().unwrap()],
    );
    let summary = rows.pop().unwrap();
    assert_eq!(summary["positions"], 200);
    // Each accounting answer's proof is on disk and checks against its CNF.
    for row in rows.iter().filter(|r| r["method"] == "accounting") {
        assert_eq!(row["proof_checked"], true, "{row}");
        let proof = std::path::PathBuf::from(row["proofs"][0].as_str().unwrap());
        let cnf = proof.with_extension("cnf");
        let open = |p: &std::path::Path| std::fs::File::open(p).unwrap();
        satgen::proof::check_dimacs(open(&cnf), open(&proof)).unwrap();
    }
    // What the cheap rules pass, the flip accounting mostly refutes (14 of 17 here).
    let by_accounting = rows.iter().filter(|r| r["method"] == "accounting").count();
    assert!(
        by_accounting >= 7,
        "{by_accounting} of 200 refuted by the flip accounting"
    );
    let by_order = rows
        .iter()
        .filter(|r| {
            r["certificate"]
                .as_str()
                .is_some_and(|c| c.contains("no order of play"))
        })
        .count();
    assert!(
        by_order >= 50,
        "{by_order} of 200 refuted by placement order"
    );
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

/// `check --passes odd` and `--passes even` split a file by whether some game without
/// passes can end at a position with its side to move, keeping the file's row numbers:
/// together every position once, each on its side, merging as shards do. CSV input,
/// whose lines ask both sides to move, is refused.
#[test]
fn check_passes_splits_the_file_by_parity() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.obf");
    let sample = retro(&["sample", "--random-boards", "--count", "40", "--seed", "5"]);
    std::fs::write(&file, &sample.stdout).unwrap();
    let positions = engine::input::read_positions(&file, None).unwrap();
    let mut seen = Vec::new();
    let mut parts = Vec::new();
    for (passes, odd) in [("odd", true), ("even", false)] {
        let rows = check_with_varisat(&file, "0.05", &["--quick-nodes", "1", "--passes", passes]);
        let summary = rows.last().unwrap();
        assert_eq!(
            summary["positions"].as_u64().unwrap() as usize,
            rows.len() - 1
        );
        for row in &rows[..rows.len() - 1] {
            let index = row["index"].as_u64().unwrap() as usize;
            let position = positions[index - 1].1.position;
            assert_eq!(!satgen::target::no_passes_possible(&position), odd, "{row}");
            seen.push(index);
        }
        let path = dir.path().join(format!("{passes}.jsonl"));
        let text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        std::fs::write(&path, text.join("\n")).unwrap();
        parts.push(path.to_str().unwrap().to_string());
        assert!(rows.len() > 1, "no {passes} board among 40");
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=40).collect::<Vec<usize>>());
    let output = merge(&["--json"], &parts);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json_lines(&output).last().unwrap()["positions"], 40);
    let csv = dir.path().join("c.csv");
    std::fs::write(&csv, "0x0000000810000000,0x0000001008000000\n").unwrap();
    let output = retro(&["check", csv.to_str().unwrap(), "--passes", "odd"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("--passes") && err.contains("c.csv"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `check --done` decides only what earlier results left undecided, under the file's own
/// numbers; `merge` puts each new answer over the UNKNOWN row it replaces, in either order;
/// answers that disagree, and results of another file, are one-line errors.
#[test]
fn done_reruns_the_unknown_and_merge_puts_the_answers_over_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.obf");
    let games = retro(&["sample", "--discs", "20", "--count", "3", "--seed", "1"]);
    let boards = retro(&["sample", "--random-boards", "--count", "12", "--seed", "4"]);
    std::fs::write(&file, [games.stdout, boards.stdout].concat()).unwrap();
    // Rows changed by hand sealed again: what a run that gave those answers writes.
    let write = |name: &str, rows: &[serde_json::Value]| {
        let path = dir.path().join(name);
        std::fs::write(&path, reseal(rows)).unwrap();
        path.to_str().unwrap().to_string()
    };
    let whole = check_with_varisat(&file, "30", &[]);
    assert_eq!(whole.last().unwrap()["unknown"], 0, "{whole:?}");
    // A first run that left the three games and the last board undecided, and whose
    // "no" for board 14 is a solver's word (`--trust-unsat`, or an older run's row).
    let unknown = [1, 2, 3, 14, 15];
    let first: Vec<serde_json::Value> = whole
        .iter()
        .map(|row| {
            let mut row = row.clone();
            match row["index"].as_u64() {
                Some(14) => {
                    assert_eq!(row["reachable"], false, "{row}");
                    row["method"] = "sat".into();
                    row["proof_checked"] = false.into();
                }
                Some(i) if unknown.contains(&i) => {
                    row["reachable"] = serde_json::Value::Null;
                    row["method"] = serde_json::Value::Null;
                    row["witness"] = serde_json::Value::Null;
                }
                _ => {}
            }
            row
        })
        .collect();
    let output = retro(&[
        "merge",
        "--json",
        "--estimate",
        &write("unchecked.jsonl", &first),
    ]);
    let summary = json_lines(&output).pop().unwrap();
    assert_eq!(
        (&summary["unknown"], &summary["unchecked"]),
        (&4.into(), &1.into())
    );
    assert_eq!(summary["estimate"]["unknown"], 5, "{summary}");
    let first_path = write("first.jsonl", &first);
    let again = check_with_varisat(&file, "30", &["--done", &first_path]);
    let mut rerun: Vec<u64> = again
        .iter()
        .filter(|r| r["summary"] != true)
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    rerun.sort_unstable();
    assert_eq!(rerun, unknown);
    assert_eq!(again.last().unwrap()["unknown"], 0, "{again:?}");
    let again_path = write("again.jsonl", &again);
    for parts in [[&first_path, &again_path], [&again_path, &first_path]] {
        let output = retro(&["merge", "--json", parts[0], parts[1]]);
        assert!(output.status.success(), "{output:?}");
        let mut merged = json_lines(&output);
        let summary = merged.pop().unwrap();
        assert_eq!(summary["positions"], 15);
        for key in ["reachable", "unreachable", "unknown"] {
            assert_eq!(summary[key], whole.last().unwrap()[key], "{key}");
        }
        let answers = |rows: &[serde_json::Value]| {
            let mut answers: Vec<(u64, Option<bool>)> = rows
                .iter()
                .filter(|r| r["summary"] != true)
                .map(|r| (r["index"].as_u64().unwrap(), r["reachable"].as_bool()))
                .collect();
            answers.sort_unstable();
            answers
        };
        assert_eq!(answers(&merged), answers(&whole));
    }
    // Nothing left: a third run decides nothing.
    let third = check_with_varisat(&file, "30", &["--done", &first_path, &again_path]);
    assert_eq!(third.len(), 1, "{third:?}");
    // A rerun that contradicts an answer.
    let mut flipped = again.clone();
    flipped[0]["reachable"] = serde_json::Value::Bool(flipped[0]["reachable"] != true);
    let flipped_path = write("flipped.jsonl", &flipped);
    let output = retro(&["merge", &again_path, &flipped_path]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "{flipped_path}:1: position {}",
            flipped[0]["index"]
        )) && err.contains("but"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Results of a longer file.
    let mut longer = first.clone();
    longer[0]["index"] = serde_json::json!(16);
    let longer_path = write("longer.jsonl", &longer);
    let output = retro(&["check", file.to_str().unwrap(), "--done", &longer_path]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains(&format!("{longer_path}:1: position 16")) && err.contains("15 positions"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A shell script `name` in `dir` with `body`, made executable: a stand-in solver. Its
/// path.
fn stand_in(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    path.to_str().unwrap().to_string()
}

/// A stand-in solver of `version` that answers UNSAT to every question, with a false LRAT
/// proof where it is asked for one.
fn unsat_with_a_false_proof(version: &str) -> String {
    format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo {version}; exit 0; }}\n\
         for a; do last=$a; done\n\
         case $last in *.lrat) echo '9999999 0 1 0' > \"$last\" ;; esac\n\
         echo 's UNSATISFIABLE'\n"
    )
}

/// Stand-ins for Kissat (no proof) and CaDiCaL (LRAT, here a false one) that answer UNSAT
/// to every question, on a reachable position: with `--trust-unsat` Kissat's word is
/// taken and the certificate says it has no proof; by default and with `--proof DIR` it
/// is not taken (varisat asks the whole question instead), and the false LRAT proof is
/// never taken: UNKNOWN at the time limit, never UNREACHABLE.
#[test]
fn unsat_without_a_checked_proof_is_not_taken() {
    let dir = tempfile::tempdir().unwrap();
    let kissat = stand_in(dir.path(), "kissat", &unsat_with_a_false_proof("4.0.4"));
    let cadical = stand_in(dir.path(), "cadical", &unsat_with_a_false_proof("2.2.1"));
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let proofs = dir.path().join("proofs");
    let run = |solver: &str, extra: &[&str]| {
        let limit = ["--time-limit", "2", "--json"];
        let output = retro(&[&reach_by_sat(&obf, solver)[..], &limit, extra].concat());
        assert!(output.status.success(), "{output:?}");
        json_lines(&output).remove(0)
    };
    let row = run(&kissat, &["--trust-unsat"]);
    assert_eq!(row["reachable"], false);
    assert_eq!(row["proof_checked"], false);
    assert!(row["certificate"]
        .as_str()
        .unwrap()
        .contains("writes no proof"));
    let with_proofs = ["--proof", proofs.to_str().unwrap()];
    for solver in [&kissat, &cadical] {
        for extra in [&[][..], &with_proofs] {
            let row = run(solver, extra);
            assert_ne!(row["reachable"], false, "{solver} {extra:?}: {row}");
            assert_eq!(row["proofs"], serde_json::json!([]));
        }
    }
}

/// A solver without a proof (Kissat) searches the whole question for games too (only it
/// holds a game with a pass in the middle), but its UNSAT is no answer: stand-ins for
/// Kissat, which notes each question it is asked and answers UNSAT, and CaDiCaL, whose
/// LRAT proof is false. Kissat is asked the whole question once (its later seeds skip
/// it), and the answer waits for a proof: UNKNOWN at the time limit.
#[test]
fn solvers_without_proofs_search_the_whole_question_for_games() {
    let dir = tempfile::tempdir().unwrap();
    let asked = dir.path().join("asked");
    let kissat = stand_in(
        dir.path(),
        "kissat",
        &format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 4.0.4; exit 0; }}\n\
             for a; do last=$a; done\n\
             if grep -q '^c satgen-cube' \"$last\"; then echo part; else echo whole; fi >> {}\n\
             echo 's UNSATISFIABLE'\n",
            asked.display()
        ),
    );
    let cadical = stand_in(dir.path(), "cadical", &unsat_with_a_false_proof("2.2.1"));
    let position = retro::sample::random_game_positions(40, 1, 3)[0];
    let obf = engine::Obf::new(position).to_string();
    let output = retro(
        &[
            &reach_by_sat(&obf, &kissat)[..],
            &["--sat-solver", &cadical, "--time-limit", "2", "--json"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let row = json_lines(&output).remove(0);
    assert_eq!(row["reachable"], serde_json::Value::Null, "{row}");
    let asked = std::fs::read_to_string(&asked).unwrap();
    assert_eq!(
        asked.lines().filter(|l| *l == "whole").count(),
        1,
        "{asked}"
    );
    assert!(asked.lines().any(|l| l == "part"), "{asked}");
}

/// `retro check` takes the positions of a WTHOR database's games at `--empties`: all
/// reachable, each with a witness game the core replays to it.
#[test]
fn check_reads_wthor_games() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(30);
    let records: Vec<engine::wthor::Record> = (0..3)
        .map(|_| engine::wthor::Record {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: 0,
            theoretical_black_discs: 0,
            game: engine::Game::random(&mut rng, 20),
        })
        .collect();
    let header = engine::wthor::Header {
        created: [0; 4],
        year: 0,
        depth: 0,
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.wtb");
    std::fs::write(&db, engine::wthor::write(&header, &records)).unwrap();
    let output = retro(&["check", db.to_str().unwrap(), "--empties", "48", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let rows = json_lines(&output);
    // Rows come in the order they are answered, which threads decide.
    let mut answers: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r.get("index").is_some()).collect();
    answers.sort_by_key(|r| r["index"].as_u64());
    assert_eq!(answers.len(), 3);
    for (row, record) in answers.iter().zip(&records) {
        assert_eq!(row["reachable"], true, "{row}");
        let witness = row["witness"].as_str().unwrap();
        let reached = engine::Game::replay(engine::Position::START, witness).unwrap();
        let at_48 = record
            .game
            .positions
            .iter()
            .find(|p| p.board.empties().count_ones() == 48);
        assert_eq!(Some(reached.last()), at_48);
    }
    // Without --empties, a database without a depth says what to give.
    let output = retro(&["check", db.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("give --empties"));
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(retro(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(retro(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("retro.1").is_file());
    let help = String::from_utf8(retro(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("retro-{command}.1")).is_file(),
            "{command}"
        );
    }
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
