//! `engine show`: positions, move lists, standard input.

use std::process::Command;

use crate::common::*;

#[test]
fn show_every_ffo_position() {
    for file in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let text = std::fs::read_to_string(problems(file)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let output = engine(&["show", line]);
            assert!(output.status.success(), "{line}");
            let shown = stdout(&output);
            // The OBF line shown back is the input's canonical form, answers included (a
            // `%` comment is not part of it).
            let line = line.split('%').next().unwrap().trim_end();
            assert!(shown.contains(&format!("obf: {line}")), "{shown}");
            assert!(shown.contains("legal moves ("), "{shown}");
        }
        let output = engine(&["show", &problems(file)]);
        assert!(output.status.success());
        assert!(stdout(&output).matches("obf: ").count() >= 19);
    }
}

#[test]
fn show_a_move_list() {
    let output = engine(&["show", "F5d6C3"]);
    assert!(output.status.success());
    let shown = stdout(&output);
    assert!(shown.contains("moves: f5d6c3 (3 plies)"), "{shown}");
    assert!(shown.contains("white (O) to move"), "{shown}");
    let over = stdout(&engine(&["show", "d3c3b3d2e1d6d7e3f4"]));
    assert!(over.contains("game over: final score -64"), "{over}");
}

/// `-` is standard input for `show`, as for the batch commands.
#[test]
fn show_reads_standard_input() {
    let lines = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    let (output, shown) = engine_with_input(&["show", "-"], &lines);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(shown.matches("obf: ").count(), 19, "{shown}");
    assert!(shown.starts_with("-:"), "{shown}");
}

/// What parses as a position is one, even where a file of that name exists.
#[test]
fn show_reads_a_position_before_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f5d6"), "not an OBF file\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["show", "f5d6"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).starts_with("moves: f5d6 (2 plies)"));
}
