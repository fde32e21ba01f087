//! A match between two players (evaluation, depth, ProbCut selectivity): each opening
//! (random moves from the start, seeded) is played twice, the colours swapped.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use rand::{rngs::StdRng, SeedableRng};
use rayon::prelude::*;

use engine::cli::{self, Failure, Selectivity};
use engine::eval::Evaluation;
use engine::game::Game;
use engine::ggf;
use engine::position::{Color, Move};
use engine::search::midgame::Midgame;

#[derive(clap::Args)]
#[command(after_long_help = "--json: One JSON object with the totals.")]
pub struct Args {
    /// The first player's evaluation: trained, hand, or a weights file.
    #[arg(long, default_value = "trained")]
    first: String,
    /// The second player's evaluation.
    #[arg(long, default_value = "hand")]
    second: String,
    /// Openings; each is played twice (2 x OPENINGS games).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    openings: u32,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    opening_plies: u32,
    /// Search depth of both players.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// The first player's depth, if not --depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    first_depth: Option<u32>,
    /// The second player's depth, if not --depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    second_depth: Option<u32>,
    /// The first player's ProbCut level (0-4: 1.1 to 3.3 sigma) or "none" (full width).
    #[arg(long, default_value = "1", value_parser = cli::parse_selectivity)]
    first_selectivity: Selectivity,
    /// The second player's ProbCut level or "none".
    #[arg(long, default_value = "1", value_parser = cli::parse_selectivity)]
    second_selectivity: Selectivity,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every game to this file in GGF, one a line (each opening's game with the first
    /// player black, then the other): positions for `engine solve FILE --empties N`.
    #[arg(long, value_name = "FILE")]
    games: Option<std::path::PathBuf>,
    #[command(flatten)]
    threads: cli::ThreadArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

#[derive(serde::Serialize)]
struct Summary {
    first: String,
    second: String,
    first_depth: u32,
    second_depth: u32,
    first_selectivity: Selectivity,
    second_selectivity: Selectivity,
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    /// Wins plus half the draws, per game, for the first player.
    score: f64,
    /// Mean final disc difference for the first player.
    mean_discs: f64,
    /// Nodes searched by each player over all games.
    first_nodes: u64,
    second_nodes: u64,
}

/// One side of the match.
struct Player {
    eval: Arc<dyn Evaluation>,
    depth: u32,
    selectivity: Selectivity,
    /// As the games file names the player.
    name: String,
}

/// One game: its moves, black's final disc difference and the nodes each colour searched.
struct Outcome {
    game: Game,
    discs: i32,
    nodes: [u64; 2],
}

/// Plays `opening` on with `black` and `white`.
fn play(opening: &Game, black: &Player, white: &Player, stop: &AtomicBool) -> Option<Outcome> {
    let players = [black, white];
    let mut searchers = players.map(|p| {
        let mut midgame = Midgame::new(p.eval.clone(), 16);
        midgame.selectivity = p.selectivity;
        midgame
    });
    let mut nodes = [0; 2];
    let mut game = opening.clone();
    while !game.last().board.is_game_over() {
        let position = *game.last();
        let side = (position.side == Color::White) as usize;
        let analysis = searchers[side].iterate(&position.board, players[side].depth, None, stop);
        if stop.load(Relaxed) {
            return None;
        }
        nodes[side] += analysis.nodes;
        game.play(analysis.best_move.unwrap_or(Move::Pass))
            .expect("the search plays legal moves");
    }
    let (b, w) = game.last().discs();
    Some(Outcome {
        discs: b.count_ones() as i32 - w.count_ones() as i32,
        game,
        nodes,
    })
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let player = |eval: &str, depth: Option<u32>, selectivity: Selectivity| {
        let depth = depth.unwrap_or(args.depth);
        Ok::<_, Failure>(Player {
            eval: cli::load_eval(eval)?,
            depth,
            selectivity,
            name: format!(
                "{eval} depth {depth} {}",
                cli::selectivity_name(selectivity)
            ),
        })
    };
    let first = player(&args.first, args.first_depth, args.first_selectivity)?;
    let second = player(&args.second, args.second_depth, args.second_selectivity)?;
    let stop = cli::interrupt_flag();
    let mut rng = StdRng::seed_from_u64(args.seed);
    let openings: Vec<Game> = (0..args.openings)
        .map(|_| Game::random(&mut rng, args.opening_plies as usize))
        .collect();
    let pool = args.threads.pool()?;
    let progress = cli::progress_bar(2 * openings.len() as u64, "games");
    // Per game: its GGF, and for the first player: disc difference, its nodes, the second's.
    let results: Vec<Option<(String, i32, u64, u64)>> = pool.install(|| {
        openings
            .par_iter()
            .flat_map(|opening| [(opening, true), (opening, false)])
            .map(|(opening, first_is_black)| {
                let (black, white) = match first_is_black {
                    true => (&first, &second),
                    false => (&second, &first),
                };
                let result = play(opening, black, white, &stop).map(|o| {
                    let text = ggf::format(&o.game, &black.name, &white.name);
                    match first_is_black {
                        true => (text, o.discs, o.nodes[0], o.nodes[1]),
                        false => (text, -o.discs, o.nodes[1], o.nodes[0]),
                    }
                });
                progress.inc(1);
                result
            })
            .collect()
    });
    progress.finish_and_clear();
    if stop.load(Relaxed) {
        return Err(Failure::Interrupted);
    }
    let results: Vec<(String, i32, u64, u64)> = results.into_iter().flatten().collect();
    if let Some(path) = &args.games {
        cli::write_file(path, |w| {
            for (text, ..) in &results {
                writeln!(w, "{text}")?;
            }
            Ok(())
        })?;
    }
    let discs: Vec<i32> = results.iter().map(|r| r.1).collect();
    let games = discs.len();
    let wins = discs.iter().filter(|&&d| d > 0).count();
    let draws = discs.iter().filter(|&&d| d == 0).count();
    let summary = Summary {
        first: args.first.clone(),
        second: args.second.clone(),
        first_depth: first.depth,
        second_depth: second.depth,
        first_selectivity: first.selectivity,
        second_selectivity: second.selectivity,
        games,
        wins,
        draws,
        losses: games - wins - draws,
        score: (wins as f64 + draws as f64 / 2.0) / games as f64,
        mean_discs: discs.iter().sum::<i32>() as f64 / games as f64,
        first_nodes: results.iter().map(|r| r.2).sum(),
        second_nodes: results.iter().map(|r| r.3).sum(),
    };
    if args.output.json {
        cli::write_json(out, &summary)
    } else {
        let player = |name: &str, depth: u32, selectivity: Selectivity| {
            format!(
                "{name} (depth {depth}, {})",
                cli::selectivity_name(selectivity)
            )
        };
        writeln!(
            out,
            "{} against {}: {} games, +{} ={} -{}, score {:.1}%, mean {:+.2} discs; nodes {} against {}",
            player(&summary.first, summary.first_depth, summary.first_selectivity),
            player(&summary.second, summary.second_depth, summary.second_selectivity),
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            summary.mean_discs,
            summary.first_nodes,
            summary.second_nodes,
        )?;
        Ok(())
    }
}
