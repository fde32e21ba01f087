//! `satgen check-proof`: the builtin checker, cake_lpr, CaDiCaL's LRAT.

use std::path::Path;

use crate::common::*;

/// `check-proof`: an accounting proof verifies against its CNF; against another CNF, or
/// cut short, it fails with exit status 1 and the step; a missing file is exit 2.
#[test]
fn check_proof_verifies_and_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let boards = [
        "X----O---O--O----XXXOO-----XX-O-X--OOOX--OOXO-O--OXO-O-OXOXOXXO- X",
        "---OO-----O--O--XOXO--XO--OOO-XO--XXOXOO-OOO-XX--XXX-O---XXXXOXO X",
    ];
    for (i, board) in boards.iter().enumerate() {
        let position = engine::Obf::parse(board).unwrap().position;
        let refuted = satgen::accounting::accounting_refutes(&position).unwrap();
        let mut cnf = Vec::new();
        satgen::dimacs::write_accounting(&mut cnf, &position, &refuted.formula).unwrap();
        std::fs::write(path(&format!("{i}.cnf")), cnf).unwrap();
        std::fs::write(path(&format!("{i}.proof")), &refuted.proof).unwrap();
    }
    let output = satgen(&["check-proof", &path("0.cnf"), &path("0.proof")]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("VERIFIED"));
    // Either file from standard input (`-`), not both.
    let cnf = std::fs::read(path("0.cnf")).unwrap();
    let proof = std::fs::read(path("0.proof")).unwrap();
    for (args, input) in [
        (["check-proof", "-", &path("0.proof")], &cnf),
        (["check-proof", &path("0.cnf"), "-"], &proof),
    ] {
        let output = satgen_with_input(&args, input);
        assert!(output.status.success(), "{args:?}: {output:?}");
    }
    let output = satgen_with_input(&["check-proof", "-", "-"], &cnf);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let output = satgen(&["check-proof", &path("0.cnf"), &path("1.proof")]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("step"));
    let proof = std::fs::read(path("0.proof")).unwrap();
    std::fs::write(path("cut.proof"), &proof[..proof.len() / 2]).unwrap();
    let output = satgen(&["check-proof", &path("0.cnf"), &path("cut.proof")]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let output = satgen(&["check-proof", &path("0.cnf"), &path("none.proof")]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // Garbage that reads as varisat's format (a control byte first), with lengths and
    // variables far beyond the file, and a device: refused in one line, never a panic or
    // an abort on a huge allocation.
    let garbage: [&[u8]; 4] = [
        &[0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x02, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x01, 0x7f, 0x13, 0x00, 0x05],
        &[0x1b, 0xfe],
    ];
    for (i, bytes) in garbage.iter().enumerate() {
        std::fs::write(path(&format!("g{i}.proof")), bytes).unwrap();
    }
    let devices = ["/dev/zero".to_string(), "/dev/null".to_string()];
    let garbage = (0..4).map(|i| path(&format!("g{i}.proof"))).chain(devices);
    for proof in garbage {
        let output = satgen(&["check-proof", &path("0.cnf"), &proof]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{proof}: {output:?}"
        );
        assert_eq!(err.lines().count(), 1, "{proof}: {err}");
        assert!(!err.contains("panicked"), "{proof}: {err}");
    }
}

/// `check-proof --checker cake_lpr|both`: where cake_lpr is installed (CI installs it,
/// scripts/install-cake-lpr.sh), CaDiCaL's proofs verify with it alone and with both
/// checkers, and a changed lemma is rejected by cake_lpr alone (exit 1); where it is not,
/// asking for it is a one-line error before any work (exit 2).
#[test]
fn cake_lpr_checks_lrat_proofs_where_installed() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data = |name: &str| data.join(name).to_str().unwrap().to_string();
    let cnf = data("pigeons-6-in-5.cnf");
    if satgen::proof::cake_lpr().is_none() {
        eprintln!("cake_lpr is not installed: only its absence is tested");
        let proof = data("pigeons-6-in-5.lrat");
        let output = satgen(&["check-proof", &cnf, &proof, "--checker", "cake_lpr"]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains("cake_lpr is not installed"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        return;
    }
    for proof in ["pigeons-6-in-5.lrat", "pigeons-6-in-5.binary.lrat"] {
        for (checker, by) in [
            ("cake_lpr", "(checked by cake_lpr)"),
            ("both", "(checked by the builtin LRAT checker and cake_lpr)"),
        ] {
            let output = satgen(&["check-proof", &cnf, &data(proof), "--checker", checker]);
            assert!(output.status.success(), "{proof} {checker}: {output:?}");
            assert!(stdout_text(&output).contains(by), "{output:?}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let altered = dir.path().join("altered.lrat");
    let text = std::fs::read_to_string(data("pigeons-6-in-5.lrat")).unwrap();
    std::fs::write(&altered, text.replacen("82 -6 ", "82 6 ", 1)).unwrap();
    let altered = altered.to_str().unwrap();
    let output = satgen(&["check-proof", &cnf, altered, "--checker", "cake_lpr"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("cake_lpr rejects it"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Proofs that CaDiCaL 2.2.1 wrote (`cadical --lrat=true [--binary=false]`) for the
/// pigeonhole formula: both forms verify; a lemma dropped or altered, the proof against
/// another CNF, and a satisfiable CNF fail with exit status 1.
#[test]
fn cadical_lrat_proofs_verify_and_tampered_ones_fail() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data = |name: &str| data.join(name).to_str().unwrap().to_string();
    let cnf = data("pigeons-6-in-5.cnf");
    for proof in ["pigeons-6-in-5.lrat", "pigeons-6-in-5.binary.lrat"] {
        let output = satgen(&["check-proof", &cnf, &data(proof)]);
        assert!(output.status.success(), "{output:?}");
        assert!(stdout_text(&output).contains("(Lrat)"));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let text = std::fs::read_to_string(data("pigeons-6-in-5.lrat")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let rejected = |name: &str, proof: &str, cnf: &str| {
        std::fs::write(path(name), proof).unwrap();
        let output = satgen(&["check-proof", cnf, &path(name)]);
        assert_eq!(output.status.code(), Some(1), "{name}: {output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    // Line 2 (clause 83) dropped: a later step names it.
    let dropped = [&lines[..1], &lines[2..]].concat().join("\n");
    assert!(rejected("dropped.lrat", &dropped, &cnf).contains("names no clause"));
    // Line 1's lemma `-6 2 4 3 5` changed to `6 2 4 3 5`: it no longer follows.
    let altered = text.replacen("82 -6 ", "82 6 ", 1);
    assert!(rejected("altered.lrat", &altered, &cnf).contains("line 1: clause 82"));
    // Against 7 pigeons in 7 holes (satisfiable): its clauses differ from the proof's.
    let mut sat = String::from("p cnf 49 7\n");
    for p in 0..7 {
        let row: Vec<String> = (1..=7).map(|h| (p * 7 + h).to_string()).collect();
        sat.push_str(&format!("{} 0\n", row.join(" ")));
    }
    std::fs::write(path("sat.cnf"), sat).unwrap();
    rejected("whole.lrat", &text, &path("sat.cnf"));
}
