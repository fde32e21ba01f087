//! Proof files: written, checked by `dfpn check-proof`, tampering caught.

use crate::common::*;

#[test]
fn proofs_are_written_checked_and_tampering_is_caught() {
    let dir = std::env::temp_dir().join(format!("dfpn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.json");
    let path_text = path.to_str().unwrap();
    let output = dfpn(&[
        "prove",
        "--board",
        FFO1,
        "--threshold",
        "18",
        "--leaf-empties",
        "8",
        "--proof",
        path_text,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read_to_string(dir.join("proof.dot"))
        .unwrap()
        .starts_with("digraph"));

    let output = dfpn(&["check-proof", path_text, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(json_lines(&output)[0]["valid"], true);

    let mut proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    proof["nodes"][0]["threshold"] = 20.into();
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, proof.to_string()).unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("invalid proof"),
        "{}",
        stderr(&output)
    );

    // The start position as the only leaf: refused at once (exit 1), not searched for ever.
    let mut proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    proof["nodes"] = serde_json::json!([{
        "position": "---------------------------OX------XO--------------------------- X",
        "threshold": 0,
        "holds": true,
        "children": []
    }]);
    std::fs::write(&tampered, proof.to_string()).unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("a leaf with 60 empties"),
        "{}",
        stderr(&output)
    );

    // A file of another format, or of none: malformed input (exit 2) alike; a device
    // stops at its first byte.
    for format in [
        serde_json::json!("othello-dfpn-proof/9"),
        serde_json::Value::Null,
    ] {
        let mut proof: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        proof["format"] = format.clone();
        std::fs::write(&tampered, proof.to_string()).unwrap();
        let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{format}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("not a proof file"),
            "{}",
            stderr(&output)
        );
    }
    let output = dfpn(&["check-proof", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    // From standard input.
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_dfpn"))
        .args(["check-proof", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));

    std::fs::write(&tampered, "{ not json").unwrap();
    let output = dfpn(&["check-proof", tampered.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output).lines().count(), 1);
    assert!(
        stderr(&output).contains("tampered.json:1:"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `score --proof DIR` and `wld --proof DIR` write a proof per position that
/// `check-proof` verifies: an exact score by its two halves, a win or loss by one; an
/// exact-score proof that claims another score, or with a half missing, is invalid.
#[test]
fn score_and_wld_proofs_for_a_whole_file() {
    let dir = std::env::temp_dir().join(format!("dfpn-cli-exact-{}", std::process::id()));
    let file = dir.join("p40-41.obf");
    std::fs::create_dir_all(&dir).unwrap();
    let lines = std::fs::read_to_string(problems("fforum-40-59.obf")).unwrap();
    let two: Vec<&str> = lines.lines().take(2).collect();
    std::fs::write(&file, two.join("\n")).unwrap();
    let file = file.to_str().unwrap();
    let scores = dir.join("scores");
    let output = dfpn(&["score", file, "--proof", scores.to_str().unwrap(), "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json_lines(&output);
    for (row, score) in rows.iter().zip(["+38", "+0"]) {
        assert!(row["proof_nodes"].as_u64().unwrap() > 1, "{row}");
        let output = dfpn(&["check-proof", row["proof"].as_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains(&format!("scores exactly {score}")));
    }
    let first = scores.join("1.json");
    let proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&first).unwrap()).unwrap();
    for (key, value) in [
        ("score", serde_json::json!(36)),
        ("below", serde_json::Value::Null),
    ] {
        let mut tampered = proof.clone();
        tampered[key] = value;
        let path = dir.join(format!("tampered-{key}.json"));
        std::fs::write(&path, tampered.to_string()).unwrap();
        let output = dfpn(&["check-proof", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{key}");
        assert!(stderr(&output).contains("invalid proof"), "{key}");
    }
    // wld: #40 is a win (one half), #41 a draw (the exact score 0).
    let wld = dir.join("wld");
    let output = dfpn(&["wld", file, "--proof", wld.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    for (index, claim) in [(1, "scores at least 2"), (2, "scores exactly +0")] {
        let path = wld.join(format!("{index}.json"));
        let output = dfpn(&["check-proof", path.to_str().unwrap()]);
        assert!(stdout(&output).contains(claim), "{}", stdout(&output));
    }
    std::fs::remove_dir_all(dir).unwrap();
}
