//! `dfpn split` and `dfpn join`: one question as jobs run in other processes, their
//! proofs joined into one that `dfpn check-proof` accepts; missing, repeated, foreign and
//! tampered parts refused.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Runs the job lines of `dir/jobs.txt` (each in a shell, as GNU parallel does), with
/// this build's `dfpn` first on the PATH.
fn run_jobs(dir: &Path) {
    let bin = Path::new(env!("CARGO_BIN_EXE_dfpn")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    for line in jobs.lines() {
        let status = Command::new("sh")
            .args(["-c", line])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(status.status.success(), "{line}: {status:?}");
    }
}

fn parts(dir: &Path, jobs: impl IntoIterator<Item = usize>) -> Vec<String> {
    jobs.into_iter()
        .map(|job| dir.join(format!("job-{job}.json")).display().to_string())
        .collect()
}

fn join(split: &str, parts: &[String], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["join", split];
    args.extend(parts.iter().map(String::as_str));
    args.extend(extra);
    dfpn(&args)
}

#[test]
fn a_split_question_joins_into_one_checked_proof() {
    let dir = tempfile::tempdir().unwrap();
    let board = FFO1.split(';').next().unwrap();
    let split = dfpn(&[
        "split",
        "--board",
        board,
        "--threshold",
        "18",
        "--depth",
        "2",
        "--dir",
        dir.path().to_str().unwrap(),
        "--job-options",
        "--threads 1 --hash-mb 8 --leaf-empties 8",
    ]);
    assert!(split.status.success(), "{split:?}");
    let jobs = std::fs::read_to_string(dir.path().join("jobs.txt")).unwrap();
    let count = jobs.lines().count();
    assert!(stdout(&split).starts_with(&format!("{count} jobs 2 plies down")));
    run_jobs(dir.path());
    let split_file = dir.path().join("split.json").display().to_string();
    let all = parts(dir.path(), 0..count);
    let output = dir.path().join("proof.json").display().to_string();
    let joined = join(&split_file, &all, &["--output", &output]);
    assert!(joined.status.success(), "{}", stderr(&joined));
    assert!(stdout(&joined).starts_with("joined: the question holds"));
    let checked = dfpn(&["check-proof", &output]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(
        stdout(&checked).contains("scores at least 18"),
        "{}",
        stdout(&checked)
    );

    // Every job done: none needed. One refuting job alone decides the root (it holds):
    // the others are listed to cancel, and it alone joins.
    let status = join(&split_file, &all, &["--status", "--json"]);
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["holds"], true);
    assert_eq!(status["needed"].as_array().unwrap().len(), 0);
    // Missing: with one part, either the root is decided and the rest unnecessary, or the
    // join names the jobs it needs (exit 2).
    let one = &all[..1];
    let status = join(&split_file, one, &["--status", "--json"]);
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    let needed = status["needed"].as_array().unwrap().len();
    let unnecessary = status["unnecessary"].as_array().unwrap().len();
    assert_eq!(needed + unnecessary, count - 1);
    let partial = join(&split_file, one, &["--output", &output]);
    if status["holds"].is_null() {
        assert_eq!(partial.status.code(), Some(2));
        assert!(stderr(&partial).contains("needed"), "{}", stderr(&partial));
    }
    // Nothing done: only the eldest moves' first job is ready (young brothers wait).
    let fresh = join(&split_file, &[], &["--status", "--json"]);
    let fresh: serde_json::Value = serde_json::from_slice(&fresh.stdout).unwrap();
    assert_eq!(fresh["ready"], serde_json::json!([0]));
    assert_eq!(fresh["needed"].as_array().unwrap().len(), count);
    let none = join(&split_file, &[], &["--output", &output]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("jobs 0, 1, 2"), "{}", stderr(&none));

    // Repeated: a part given twice.
    let mut twice = all.clone();
    twice.push(all[0].clone());
    let repeated = join(&split_file, &twice, &["--output", &output]);
    assert_eq!(repeated.status.code(), Some(2));
    assert!(
        stderr(&repeated).contains("job 0 again"),
        "{}",
        stderr(&repeated)
    );

    // Foreign: the proof of another question.
    let other = dir.path().join("other.json");
    let proved = dfpn(&[
        "prove",
        "--board",
        board,
        "--threshold",
        "20",
        "--proof",
        other.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert!(proved.status.success());
    let mut with_foreign = all.clone();
    with_foreign.push(other.display().to_string());
    let foreign = join(&split_file, &with_foreign, &["--output", &output]);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(
        stderr(&foreign).contains("is no job of this split"),
        "{}",
        stderr(&foreign)
    );

    // Tampered: a part's claim below its root turned round. The join takes the parts as
    // they are; the check of the joined proof refuses it (exit 1).
    let mut tampered_any = false;
    for part in &all {
        let text = std::fs::read_to_string(part).unwrap();
        let mut proof: serde_json::Value = serde_json::from_str(&text).unwrap();
        let nodes = proof["nodes"].as_array_mut().unwrap();
        if nodes.len() < 2 {
            continue;
        }
        let holds = nodes[1]["holds"].as_bool().unwrap();
        nodes[1]["holds"] = (!holds).into();
        std::fs::write(part, proof.to_string()).unwrap();
        tampered_any = true;
    }
    assert!(tampered_any, "no part with more than one node");
    let joined = join(&split_file, &all, &["--output", &output]);
    if joined.status.success() {
        let checked = dfpn(&["check-proof", &output]);
        assert_eq!(checked.status.code(), Some(1), "{}", stdout(&checked));
    } else {
        assert!(stderr(&joined).contains("disagree"), "{}", stderr(&joined));
    }
}
