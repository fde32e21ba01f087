//! What the tests of every command share: running the binary, reading its output.

use std::process::{Command, Output};

pub(crate) fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .output()
        .expect("retro runs")
}

pub(crate) fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Writes a shard's output to `dir/part-I.jsonl`; the path.
pub(crate) fn write_part(dir: &std::path::Path, i: usize, output: &Output) -> String {
    let path = dir.join(format!("part-{i}.jsonl"));
    std::fs::write(&path, &output.stdout).unwrap();
    path.to_str().unwrap().to_string()
}

/// `retro merge` with `options` of the files `parts`.
pub(crate) fn merge(options: &[&str], parts: &[String]) -> Output {
    let mut args = vec!["merge"];
    args.extend(options);
    args.extend(parts.iter().map(String::as_str));
    retro(&args)
}

/// `retro check FILE --json` with a small frontier, varisat and `time_limit` seconds per
/// position (plus `extra`): its rows, the summary last.
pub(crate) fn check_with_varisat(
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
