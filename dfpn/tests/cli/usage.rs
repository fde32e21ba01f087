//! The command line as a whole: bad input, help, completions and manual pages.

use crate::common::*;

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("dfpn-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_file = dir.join("bad.obf");
    std::fs::write(&bad_file, format!("{FFO1}\nXXXX X;\n")).unwrap();
    // Usage errors: clap's whole message (what is wrong, then the usage).
    for args in [
        vec!["prove", "--board", FFO1, "--threshold", "66"],
        vec!["prove", "--board", FFO1, "--threshold", "x"],
        vec!["wld", "--board", FFO1, "--threads", "0"],
        vec![],
    ] {
        let output = dfpn(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
    // Bad input found after parsing: one line.
    for args in [
        vec!["prove", "--board", "not a board", "--threshold", "0"],
        vec!["score", bad_file.to_str().unwrap()],
        vec!["score", "/no/such/file.obf"],
        vec!["score", "--board", FFO1, "--epsilon", "-1"],
        vec!["score", "--board", FFO1, "--estimate-factor", "0.5"],
        vec![
            "prove",
            bad_file.to_str().unwrap(),
            "--threshold",
            "0",
            "--proof",
            "p.json",
        ],
    ] {
        let output = dfpn(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("dfpn: "), "{err}");
    }
    let output = dfpn(&["score", bad_file.to_str().unwrap()]);
    assert!(
        stderr(&output).contains("bad.obf:2:"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_lines_are_named_in_the_help() {
    for command in ["score", "wld"] {
        let help = stdout(&dfpn(&[command, "--help"]));
        assert!(help.contains("JSON Lines"), "dfpn {command} --help: {help}");
    }
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(dfpn(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(dfpn(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("dfpn.1").is_file());
    let help = String::from_utf8(dfpn(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("dfpn-{command}.1")).is_file(),
            "{command}"
        );
    }
}
