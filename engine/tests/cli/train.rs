//! `engine datagen` and `engine train`: data resumed, weights that `solve` uses.

use crate::common::*;

#[test]
fn datagen_resumes_and_train_writes_weights_that_solve_uses() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.csv");
    let data = data.to_str().unwrap();
    let common = [
        "--exact-empties",
        "10",
        "--eval",
        "hand",
        "--threads",
        "2",
        "-o",
        data,
    ];
    let first = engine(&[&["datagen", "--games", "6"], &common[..]].concat());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(stdout(&first).starts_with("6 games"), "{}", stdout(&first));
    // Cut the last line short, as an interrupt would: the rerun drops it and plays only
    // the games not yet in the file.
    let text = std::fs::read_to_string(data).unwrap();
    std::fs::write(data, &text[..text.len() - 5]).unwrap();
    let second = engine(&[&["datagen", "--games", "9"], &common[..]].concat());
    assert!(second.status.success());
    assert!(
        stdout(&second).starts_with("3 games"),
        "{}",
        stdout(&second)
    );
    assert!(stdout(&second).contains("(6 games were already there)"));
    let text = std::fs::read_to_string(data).unwrap();
    let games: std::collections::BTreeSet<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(games.len(), 9);
    assert!(text.lines().skip(1).all(|l| l.split(',').count() == 6));

    let weights = dir.path().join("w.bin");
    let weights = weights.to_str().unwrap();
    let train = engine(&["train", data, "-o", weights, "--iterations", "5", "--json"]);
    assert!(
        train.status.success(),
        "{}",
        String::from_utf8_lossy(&train.stderr)
    );
    let phases: Vec<serde_json::Value> = stdout(&train)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(phases.len(), 16);
    let solve = engine(&["solve", &problems("fforum-1-19.obf"), "--eval", weights]);
    assert!(solve.status.success(), "{}", stdout(&solve));

    // Damaged inputs: one line naming the file, status 2.
    std::fs::write(data, format!("{text}1,zz,0,60,0,exact\n")).unwrap();
    for args in [
        vec!["train", data, "-o", weights],
        vec!["datagen", "--games", "10", "-o", data],
    ] {
        let output = engine(&args);
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(
            message.contains(data) && message.contains("line "),
            "{message}"
        );
    }
    std::fs::write(weights, b"OTHEVAL1 truncated").unwrap();
    let output = engine(&["solve", "--board", "f5", "--eval", weights]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains(weights));
    // A device is read with a cap, not into memory without end.
    let output = engine(&["solve", "--board", "f5", "--eval", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a weights file"));
}
