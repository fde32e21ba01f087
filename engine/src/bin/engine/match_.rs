//! A match between two evaluations at equal search depth: each opening (random moves
//! from the start, seeded) is played twice, the colours swapped.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use rand::{rngs::StdRng, SeedableRng};
use rayon::prelude::*;

use engine::cli::{self, Failure};
use engine::eval::Evaluation;
use engine::game::Game;
use engine::position::{Color, Move};
use engine::search::midgame::Midgame;

#[derive(clap::Args)]
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
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// One JSON object with the totals.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Summary {
    first: String,
    second: String,
    depth: u32,
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    /// Wins plus half the draws, per game, for the first player.
    score: f64,
    /// Mean final disc difference for the first player.
    mean_discs: f64,
}

/// Plays `opening` on with `black` and `white`; the final disc difference for black.
fn play(
    opening: &Game,
    black: &Arc<dyn Evaluation>,
    white: &Arc<dyn Evaluation>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<i32> {
    let mut players = [
        Midgame::new(black.clone(), 16),
        Midgame::new(white.clone(), 16),
    ];
    let mut position = *opening.last();
    while !position.board.is_game_over() {
        let player = &mut players[(position.side == Color::White) as usize];
        let analysis = player.iterate(&position.board, depth, None, stop);
        if stop.load(Relaxed) {
            return None;
        }
        position = position
            .play(analysis.best_move.unwrap_or(Move::Pass))
            .expect("the search plays legal moves");
    }
    let (b, w) = position.discs();
    Some(b.count_ones() as i32 - w.count_ones() as i32)
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let first = cli::load_eval(&args.first)?;
    let second = cli::load_eval(&args.second)?;
    let stop = cli::interrupt_flag();
    let mut rng = StdRng::seed_from_u64(args.seed);
    let openings: Vec<Game> = (0..args.openings)
        .map(|_| Game::random(&mut rng, args.opening_plies as usize))
        .collect();
    let pool = cli::thread_pool(args.threads)?;
    let progress = cli::progress_bar(2 * openings.len() as u64, "games");
    // Per game: the first player's disc difference.
    let results: Vec<Option<i32>> = pool.install(|| {
        openings
            .par_iter()
            .flat_map(|opening| [(opening, true), (opening, false)])
            .map(|(opening, first_is_black)| {
                let result = if first_is_black {
                    play(opening, &first, &second, args.depth, &stop)
                } else {
                    play(opening, &second, &first, args.depth, &stop).map(|d| -d)
                };
                progress.inc(1);
                result
            })
            .collect()
    });
    progress.finish_and_clear();
    if stop.load(Relaxed) {
        return Err(Failure::Interrupted);
    }
    let discs: Vec<i32> = results.into_iter().flatten().collect();
    let games = discs.len();
    let wins = discs.iter().filter(|&&d| d > 0).count();
    let draws = discs.iter().filter(|&&d| d == 0).count();
    let summary = Summary {
        first: args.first.clone(),
        second: args.second.clone(),
        depth: args.depth,
        games,
        wins,
        draws,
        losses: games - wins - draws,
        score: (wins as f64 + draws as f64 / 2.0) / games as f64,
        mean_discs: discs.iter().sum::<i32>() as f64 / games as f64,
    };
    if args.json {
        cli::write_json(out, &summary)
    } else {
        writeln!(
            out,
            "{} against {} at depth {}: {} games, +{} ={} -{}, score {:.1}%, mean {:+.2} discs",
            summary.first,
            summary.second,
            summary.depth,
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            summary.mean_discs
        )?;
        Ok(())
    }
}
