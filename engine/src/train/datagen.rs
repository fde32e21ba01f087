//! Training positions: games from random openings continued by noisy self-play, every
//! position labelled with the score the evaluation should learn.
//!
//! Labels, best first: `exact` (the solver's exact score, for positions with at most
//! `exact_empties` empties), `depthD` (a D-ply search with the current evaluation: the
//! "deeper search" label, better once earlier phases are trained), `outcome` (the exact
//! score of the game's first solved position, seen from this position's side to move:
//! noisy, but needs no evaluation; Logistello's labels).
//!
//! File: CSV with the header `game,player,opponent,empties,score,label`; boards as 16 hex
//! digits from the side to move's view, score in hundredths of a disc. A game's rows are
//! written together, so a file cut short by an interrupt loses at most a partial line,
//! and a rerun skips the games already present (resuming).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::eval::Evaluation;
use crate::search::shallow_value;
use crate::search::Solver;
use crate::train::fit::Sample;

/// The first line of a data file.
pub const HEADER: &str = "game,player,opponent,empties,score,label";

/// How games are played and their positions labelled.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Search depth of the label of earlier positions; 0: the game's outcome.
    pub label_depth: u32,
    /// Search depth of self-play moves.
    pub play_depth: u32,
    /// Random moves at the start of each game (drawn uniformly from this range).
    pub opening_plies: RangeInclusive<u32>,
    /// Self-play adds a uniform random amount up to this (hundredths of a disc) to each
    /// move's score before choosing, so games differ.
    pub noise: i32,
    /// The random generator's seed (each game's own is made from it and the game's number).
    pub seed: u64,
}

/// Where a position's score comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The exact solver's final score.
    Exact,
    /// A `D`-ply search's value (files of earlier versions: an even-depth search passes
    /// the evaluation's side-to-move bias into the label, see `engine debias`).
    Search(u32),
    /// The mean of the `D`- and `(D-1)`-ply values: the evaluation's bias for the side to
    /// move enters one with each sign, so it cancels.
    Paired(u32),
    /// The exact score of the game's first solved position, from this side's view.
    Outcome,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The game it comes from.
    pub game: u64,
    /// The position, from the side to move's view.
    pub board: Board,
    /// Hundredths of a disc, for the side to move.
    pub score: i32,
    /// Where the score comes from.
    pub label: Label,
}

impl Label {
    /// The name in the file: `exact`, `depthD`, `pairedD`, `outcome`.
    pub fn name(&self) -> String {
        match self {
            Label::Exact => "exact".to_string(),
            Label::Search(d) => format!("depth{d}"),
            Label::Paired(d) => format!("paired{d}"),
            Label::Outcome => "outcome".to_string(),
        }
    }
}

impl Labelled {
    /// Its line of a data file (no newline).
    pub fn csv_line(&self) -> String {
        format!(
            "{},{:016x},{:016x},{},{},{}",
            self.game,
            self.board.player,
            self.board.opponent,
            self.board.empty_count(),
            self.score,
            self.label.name()
        )
    }

    /// Parses one line of the file (not the header).
    pub fn parse(line: &str) -> Result<Labelled, String> {
        let fields: Vec<&str> = line.split(',').collect();
        let [game, player, opponent, empties, score, label] = fields[..] else {
            return Err(format!("expected 6 fields, found {}", fields.len()));
        };
        let hex = |s: &str, what: &str| {
            u64::from_str_radix(s, 16).map_err(|_| format!("{what} is not a hex bitboard: {s:?}"))
        };
        let board = Board::new(hex(player, "player")?, hex(opponent, "opponent")?);
        if board.player & board.opponent != 0 {
            return Err("player and opponent share squares".into());
        }
        if empties.parse::<u32>().ok() != Some(board.empty_count()) {
            return Err(format!("empties {empties:?} do not match the board"));
        }
        let score: i32 = score
            .parse()
            .ok()
            .filter(|s: &i32| s.abs() <= 6400)
            .ok_or_else(|| format!("score {score:?} is not in -6400..=6400"))?;
        let label = match label {
            "exact" => Label::Exact,
            "outcome" => Label::Outcome,
            _ => {
                let depth = |prefix: &str| label.strip_prefix(prefix).and_then(|d| d.parse().ok());
                match (depth("depth"), depth("paired")) {
                    (Some(d), _) => Label::Search(d),
                    (_, Some(d)) => Label::Paired(d),
                    _ => return Err(format!("unknown label {label:?}")),
                }
            }
        };
        let game = game
            .parse()
            .map_err(|_| format!("game {game:?} is not a number"))?;
        Ok(Labelled {
            game,
            board,
            score,
            label,
        })
    }

    /// What the fit learns from it (the score in discs).
    pub fn sample(&self) -> Sample {
        Sample {
            board: self.board,
            target: self.score as f32 / 100.0,
        }
    }
}

/// `text` up to its last newline: a last line without one is an interrupted write.
pub fn complete_lines(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

/// Reads a data file: the rows, or "line N: problem". A last line without its newline
/// (an interrupted write) is ignored; so is the header wherever it is (files of shards
/// joined with `cat` repeat it).
pub fn read(text: &str) -> Result<Vec<Labelled>, String> {
    let mut rows = Vec::new();
    for (n, line) in complete_lines(text).lines().enumerate() {
        if line == HEADER {
            continue;
        }
        rows.push(Labelled::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(rows)
}

/// The games already in a data file (to skip when resuming).
pub fn games_done(rows: &[Labelled]) -> HashSet<u64> {
    rows.iter().map(|r| r.game).collect()
}

/// Plays game number `index` and labels its positions; `None` if `stop` was raised.
/// The game depends only on `index`, the options and the evaluation, so reruns and
/// other machines (sharded indices) produce the same rows.
pub fn play_game(
    index: u64,
    options: &DatagenOptions,
    eval: &dyn Evaluation,
    solver: &Solver,
    stop: &AtomicBool,
) -> Option<Vec<Labelled>> {
    let mut rng = StdRng::seed_from_u64(options.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    // Every position of the game, each from its side to move's view.
    let mut line = vec![Board::START];
    let opening = rng.random_range(options.opening_plies.clone());
    let mut board = Board::START;
    while !board.is_game_over() {
        let moves = Bitboard(board.moves());
        board = if moves.is_empty() {
            board.pass()
        } else if (line.len() as u32) <= opening {
            let sq = moves
                .into_iter()
                .nth(rng.random_range(0..moves.count() as usize))
                .unwrap();
            board.play(sq).unwrap()
        } else {
            let (sq, _) = moves
                .into_iter()
                .map(|sq| {
                    let child = board.play(sq).unwrap();
                    let depth = options.play_depth.saturating_sub(1);
                    let value = -shallow_value(eval, &child, depth, -30_000, 30_000);
                    (sq, value + rng.random_range(0..=options.noise.max(0)))
                })
                .max_by_key(|&(_, value)| value)
                .unwrap();
            board.play(sq).unwrap()
        };
        line.push(board);
    }
    // The final position has nothing to evaluate, but scores a game cut short.
    let last = line.pop().expect("a game has a final position");
    let mut rows = Vec::with_capacity(line.len());
    // In game order: later positions find much of their tree in the table.
    for (ply, board) in line.iter().enumerate() {
        if board.empty_count() <= options.exact_empties {
            let score = solver.solve(board, -65, 65, stop)?.score;
            rows.push((ply, *board, score * 100, Label::Exact));
        }
    }
    // The first position solved, and its ply, for outcome labels.
    let outcome = rows
        .first()
        .map_or((line.len(), last.final_score()), |&(ply, _, score, _)| {
            (ply, score / 100)
        });
    for (ply, board) in line.iter().enumerate() {
        if board.empty_count() <= options.exact_empties {
            continue;
        }
        let (score, label) = if options.label_depth > 0 {
            let value = paired_value(eval, board, options.label_depth);
            (value.clamp(-6400, 6400), Label::Paired(options.label_depth))
        } else {
            let (at, score) = outcome;
            let sign = if (at - ply) % 2 == 0 { 1 } else { -1 };
            (sign * score * 100, Label::Outcome)
        };
        rows.push((ply, *board, score, label));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    rows.sort_by_key(|r| r.0);
    Some(
        rows.into_iter()
            .map(|(_, board, score, label)| Labelled {
                game: index,
                board,
                score,
                label,
            })
            .collect(),
    )
}

/// The rows of one game as the lines of the file.
pub fn csv_lines(rows: &[Labelled]) -> String {
    let mut text = String::new();
    for row in rows {
        let _ = writeln!(text, "{}", row.csv_line());
    }
    text
}

/// The label of [`Label::Paired`]: the mean of the `depth`- and `(depth - 1)`-ply values
/// (hundredths of a disc).
fn paired_value(eval: &dyn Evaluation, board: &Board, depth: u32) -> i32 {
    let value = |d| shallow_value(eval, board, d, -30_000, 30_000);
    (value(depth) + value(depth - 1)).div_euclid(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandEval;

    fn options() -> DatagenOptions {
        DatagenOptions {
            exact_empties: 8,
            label_depth: 0,
            play_depth: 1,
            opening_plies: 4..=12,
            noise: 200,
            seed: 1,
        }
    }

    #[test]
    fn games_are_labelled_consistently_and_replay() {
        let solver = Solver::new(16);
        let stop = AtomicBool::new(false);
        for index in 0..20 {
            // Labels by outcome, and (odd games) by paired searches.
            let options = DatagenOptions {
                label_depth: (index % 2) as u32 * 2,
                ..options()
            };
            let rows = play_game(index, &options, &HandEval, &solver, &stop).unwrap();
            assert_eq!(
                rows,
                play_game(index, &options, &HandEval, &solver, &stop).unwrap()
            );
            // Consecutive rows are a legal game from the start.
            assert_eq!(rows[0].board, Board::START);
            for pair in rows.windows(2) {
                let (a, b) = (pair[0].board, pair[1].board);
                let successors: Vec<Board> = if a.moves() == 0 {
                    vec![a.pass()]
                } else {
                    Bitboard(a.moves())
                        .into_iter()
                        .map(|sq| a.play(sq).unwrap())
                        .collect()
                };
                assert!(successors.contains(&b), "game {index}: not a move");
            }
            let first_exact = rows.iter().position(|r| r.label == Label::Exact).unwrap();
            for (i, row) in rows.iter().enumerate() {
                match row.label {
                    Label::Exact => {
                        let reference = crate::reference::minimax(&row.board, -65, 65);
                        assert_eq!(row.score, 100 * reference);
                    }
                    Label::Outcome => {
                        let sign = if (first_exact - i) % 2 == 0 { 1 } else { -1 };
                        assert_eq!(row.score, sign * rows[first_exact].score);
                    }
                    Label::Paired(d) => {
                        assert_eq!(row.score, paired_value(&HandEval, &row.board, d))
                    }
                    Label::Search(_) => unreachable!("written by earlier versions only"),
                }
            }
        }
    }

    #[test]
    fn file_lines_round_trip_and_errors_name_the_line() {
        let solver = Solver::new(16);
        let stop = AtomicBool::new(false);
        let rows = play_game(3, &options(), &HandEval, &solver, &stop).unwrap();
        let text = format!("{HEADER}\n{}", csv_lines(&rows));
        assert_eq!(read(&text).unwrap(), rows);
        // Two shards' files joined by `cat`: the second header is skipped.
        let joined = read(&format!("{text}{text}")).unwrap();
        assert_eq!(joined, [&rows[..], &rows[..]].concat());
        // An interrupted last line is dropped, not an error.
        assert_eq!(
            read(&text[..text.len() - 3]).unwrap(),
            rows[..rows.len() - 1]
        );
        let bad = text.replacen(",exact", ",exakt", 1);
        let message = read(&bad).unwrap_err();
        assert!(
            message.starts_with("line ") && message.contains("exakt"),
            "{message}"
        );
        assert_eq!(games_done(&rows), HashSet::from([3]));
    }
}
