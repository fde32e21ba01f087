//! The command line as a whole: usage errors, bad input, help, completions and manual pages.

use crate::common::*;

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty_file = dir.path().join("empty.obf").to_str().unwrap().to_string();
    std::fs::write(&empty_file, "% nothing here\n\n").unwrap();
    let empty = "-".repeat(64);
    let start = "---------------------------OX------XO---------------------------";
    let cases: Vec<(Vec<String>, &str)> =
        vec![
        (
            vec!["show".into(), "f5 a1".into()],
            "position:1:4: illegal move a1",
        ),
        (
            vec!["show".into(), format!("{start} Q")],
            "position:1:66: side to move",
        ),
        (
            vec!["show".into(), format!("{empty} X")],
            "impossible position: centre square d4",
        ),
        (
            vec!["show".into(), format!("{start} X; A1:+70;")],
            "out of range",
        ),
        (
            vec!["perft".into(), "3".into(), "--board".into(), "zz".into()],
            "--board:1:1:",
        ),
        // A mistyped file name is a missing file, not a bad move list.
        (
            vec!["show".into(), "nonexist.obf".into()],
            "nonexist.obf: no such file",
        ),
        (
            vec!["solve".into(), empty_file.clone()],
            "no positions (every line is empty or a comment)",
        ),
        // Input is read a line at a time with a cap (it grew to gigabytes on /dev/zero).
        (
            vec!["solve".into(), "/dev/zero".into()],
            "/dev/zero:1: line longer than 1 MiB",
        ),
        // An answer for a move that cannot be played is a malformed line (it was exit 1,
        // a wrong answer).
        (
            vec!["solve".into(), "--board".into(), format!("{start} X; A1:+2;")],
            "--board:1:69: illegal move a1",
        ),
        // A board with a square missing is read as a board, not as a list of moves.
        (
            vec!["show".into(), format!("{} X", &start[1..])],
            "board has 63 squares",
        ),
        (
            vec!["show".into(), dir.path().to_str().unwrap().into()],
            "is a directory",
        ),
        (
            vec!["show".into(), "no".into()],
            "\"no\" is not a move (a1..h8, or ps/pa/pass for a pass); nor is there a file \"no\"",
        ),
        (
            vec!["solve".into(), format!("{} X", start.replace('-', "."))],
            "it looks like a position: give it with --board",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = engine(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

/// Usage errors show clap's whole message on stderr, exit status 2: what is wrong, a
/// suggestion for a mistyped name, the usage; the help when nothing is given.
#[test]
fn usage_errors_show_the_whole_message() {
    for (args, message) in [
        (vec!["perft", "0"], "0 is not in 1..=60"),
        (vec!["perft", "x"], "invalid value 'x'"),
        (vec!["perft", "3", "--nope"], "unexpected argument"),
        (vec!["frobnicate"], "unrecognized subcommand"),
        (vec!["sovle"], "a similar subcommand exists: 'solve'"),
        (
            vec!["solve", "--board", "f5", "--hash-mb", "99999999"],
            "MiB of memory this machine has",
        ),
        (
            vec!["solve", "--board", "f5", "--hash-mb", "-1"],
            "a positive number of MiB",
        ),
        // Without the arguments it needs, the whole help.
        (vec!["solve"], "Usage: engine solve"),
        (vec![], "Commands:"),
    ] {
        let output = engine(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--help") && stderr.lines().count() > 1,
            "{args:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_file_names_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("engine-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.obf");
    let start = "---------------------------OX------XO---------------------------";
    std::fs::write(&path, format!("% comment\n{start} X;\n{start} X; G8+1;\n")).unwrap();
    let output = engine(&["show", path.to_str().unwrap()]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let expected = format!(
        "engine: {}:3:69: answer field \"G8+1\" is not MOVE:SCORE",
        path.display()
    );
    assert_eq!(stderr.trim(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every subcommand whose `--json` writes several objects says it writes JSON Lines.
#[test]
fn json_lines_are_named_in_the_help() {
    for command in ["solve", "perft", "analyze", "probcut", "train"] {
        let help = stdout(&engine(&[command, "--help"]));
        assert!(
            help.contains("JSON Lines"),
            "engine {command} --help: {help}"
        );
    }
}

/// `completions` and `manual` (scripts/install-shell-files.sh) cover every command: the
/// files are made from the command line itself.
#[test]
fn shell_completions_and_man_pages() {
    let dir = tempfile::tempdir().unwrap();
    assert!(engine(&["manual", dir.path().to_str().unwrap()])
        .status
        .success());
    let bash = String::from_utf8(engine(&["completions", "bash"]).stdout).unwrap();
    assert!(dir.path().join("engine.1").is_file());
    let help = String::from_utf8(engine(&["--help"]).stdout).unwrap();
    let commands = engine::cli::listed_commands(&help);
    assert!(commands.len() > 4, "{help}");
    for command in &commands {
        assert!(bash.contains(command), "{command}");
        assert!(
            dir.path().join(format!("engine-{command}.1")).is_file(),
            "{command}"
        );
    }
}
