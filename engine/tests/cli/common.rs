//! What the tests of every command share: running the binary, reading its output.

use std::process::{Command, Output};

pub(crate) fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("engine runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

pub(crate) fn problems(name: &str) -> String {
    format!("{}/../problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `engine ARGS` with `input` on stdin; returns its stdout.
pub(crate) fn engine_with_input(args: &[&str], input: &str) -> (Output, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("engine runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    (output, text)
}
