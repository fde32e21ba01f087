//! `engine nboard`: the protocol, the clock.

use crate::common::*;

#[test]
fn nboard_conversation() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let script = format!(
        "nboard 2\nset depth 4\nset contempt 0\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]{start}B[F5//0.1]W[D6];)\n\
         ping 1\nhint 2\ngo\nmove C3/0.5/1.0\nmove a1\ngo\nlearn\nping 2\nquit\n"
    );
    let (output, text) = engine_with_input(&["nboard"], &script);
    assert!(output.status.success());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "set myname engine");
    assert_eq!(lines[1], "pong 1");
    let searches: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .copied()
        .collect();
    assert_eq!(searches.len(), 2, "{text}");
    // The hints and the first answer are black's legal moves after f5 d6.
    let after_d6 = engine::Game::replay(engine::Position::START, "f5d6").unwrap();
    let legal: Vec<String> = after_d6
        .last()
        .board
        .legal_moves()
        .map(|sq| sq.to_string().to_uppercase())
        .collect();
    for line in &searches {
        let fields: Vec<&str> = line.split(' ').collect();
        assert!(legal.iter().any(|m| m == fields[1]), "{line}");
        assert!(
            fields[2].parse::<f64>().is_ok() && fields[4] == "4",
            "{line}"
        );
    }
    let answers: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("=== "))
        .copied()
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert!(
        legal.iter().any(|m| m == &answers[0][4..6]),
        "{}",
        answers[0]
    );
    // After c3 it is white's turn: the second answer is one of white's moves there.
    let after_c3 = engine::Game::replay(engine::Position::START, "f5d6c3").unwrap();
    let white_move: engine::Move = answers[1][4..6].to_lowercase().parse().unwrap();
    assert!(after_c3.last().play(white_move).is_ok(), "{}", answers[1]);
    assert!(text.contains("status bad move \"a1\""), "{text}");
    assert!(lines.contains(&"learned"));
    assert_eq!(lines.last(), Some(&"pong 2"));
}

/// With a time limit in the game, `go` at depth 20 (a search far longer than its share)
/// answers within its share of the clock: the game's time (`TI`) less what black used,
/// spread over black's remaining moves.
#[test]
fn nboard_go_keeps_to_the_clock() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let script = format!(
        "nboard 2\nset depth 20\nset game (;GM[Othello]TI[0:30]TY[8]{start}B[F5//2.5]W[D6//1];)\n\
         move C3/0.5/3.0\nmove D3\ngo\nquit\n"
    );
    let started = std::time::Instant::now();
    let (output, text) = engine_with_input(&["nboard"], &script);
    assert!(output.status.success());
    // Black: 30 - 2.5 - 3 = 24.5 s for 29 moves: under a second for this one.
    assert!(started.elapsed().as_secs_f64() < 10.0, "{text}");
    let answer = text
        .lines()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    let after_d3 = engine::Game::replay(engine::Position::START, "f5d6c3d3").unwrap();
    let mv: engine::Move = answer[4..6].to_lowercase().parse().unwrap();
    assert!(after_d3.last().play(mv).is_ok(), "{answer}");
    let seconds: f64 = answer.rsplit('/').next().unwrap().parse().unwrap();
    assert!(seconds < 1.5, "{answer}");
}
