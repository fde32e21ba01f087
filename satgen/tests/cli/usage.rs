//! The command line as a whole: bad arguments, completions and manual pages.

use crate::common::*;

#[test]
fn bad_arguments_exit_2() {
    // Usage errors: clap's whole message (what is wrong, then the usage).
    for args in [
        vec!["solve", "--mobility", "65"],
        vec!["solve", "--mobility", "5", "--plies", "0"],
        vec![
            "solve",
            "--mobility",
            "5",
            "--solver",
            "kissat",
            "--solver-cmd",
            "kissat",
        ],
        vec!["solve", "--mobility", "5", "--by-ply", "--threads", "0"],
        // The threads bound of every tool: 1 to 1024.
        vec![
            "solve",
            "--mobility",
            "5",
            "--by-ply",
            "--threads",
            "4294967295",
        ],
        vec!["curve", "--to", "2", "--threads", "1025"],
        // Options of the reachability question without one.
        vec!["emit", "--mobility", "5", "--no-passes", "-o", "/dev/null"],
        vec!["emit", "--mobility", "5", "--accounting", "-o", "/dev/null"],
        vec![],
    ] {
        let output = satgen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
    // Bad input found after parsing: one line.
    let mut cases = vec![vec!["decode", "/no/such.cnf", "/no/such.model"]];
    if !cfg!(feature = "cadical") {
        cases.push(vec![
            "solve",
            "--mobility",
            "5",
            "--plies",
            "2",
            "--solver",
            "cadical",
        ]);
    }
    for args in cases {
        let output = satgen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(satgen(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(satgen(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("satgen.1").is_file());
    let help = String::from_utf8(satgen(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("satgen-{command}.1")).is_file(),
            "{command}"
        );
    }
}
