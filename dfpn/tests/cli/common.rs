//! What the tests of every command share: running the binary, reading its output.

use std::process::{Command, Output};

pub(crate) fn dfpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dfpn"))
        .args(args)
        .output()
        .expect("dfpn runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

pub(crate) fn problems(name: &str) -> String {
    format!("{}/../problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

pub(crate) const FFO1: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
