//! The command line as a whole: bad arguments, completions and manual pages.

use crate::common::*;

/// Usage errors: clap's whole message (what is wrong, then the usage), exit status 2.
#[test]
fn bad_arguments_show_the_usage_and_exit_2() {
    // Without arguments, the whole help: every way to ask (--plies or --discs).
    let bare = retro(&["enumerate"]);
    let help = String::from_utf8_lossy(&bare.stderr);
    assert!(
        help.contains("--plies") && help.contains("--discs"),
        "{help}"
    );
    for args in [
        vec!["enumerate"],
        vec!["enumerate", "--plies", "61"],
        vec!["enumerate", "--plies", "3", "--discs", "6"],
        vec!["enumerate", "--discs", "12", "--first-passes", "f.obf"],
        vec!["maxmob", "--plies", "x"],
        vec![],
    ] {
        let output = retro(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("--help") && err.lines().count() > 1,
            "{args:?}: {err}"
        );
    }
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(retro(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(retro(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("retro.1").is_file());
    let help = String::from_utf8(retro(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("retro-{command}.1")).is_file(),
            "{command}"
        );
    }
}
