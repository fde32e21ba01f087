use std::io::Write;
use std::time::Instant;

use engine::cli::{self, Failure, PositionArgs};
use engine::search::midgame::Midgame;

#[derive(clap::Args)]
#[command(after_long_help = "--json: one per position.")]
pub struct Args {
    #[command(flatten)]
    selectivity: cli::SelectivityArgs,
    #[command(flatten)]
    positions: PositionArgs,
    /// Plies searched for each move (the move included); the end of the game is solved
    /// exactly when it is within reach and within 20 empties.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    #[command(flatten)]
    eval: cli::EvalArgs,
    #[command(flatten)]
    hash: cli::HashArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    depth: u32,
    /// Per move, best first: the move and its score in discs for the side to move.
    moves: Vec<(String, f64)>,
    nodes: u64,
    seconds: f64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let positions = args.positions.read()?;
    let eval = args.eval.load()?;
    let stop = cli::interrupt_flag();
    for (index, obf) in &positions {
        let board = obf.position.board;
        let mut midgame = Midgame::new(eval.clone(), args.hash.mb());
        midgame.selectivity = args.selectivity.selectivity;
        let start = Instant::now();
        let scores = midgame.analyze(&board, args.depth, &stop);
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Failure::Interrupted);
        }
        let row = Row {
            index: *index,
            empties: board.empty_count(),
            depth: args.depth,
            moves: scores
                .iter()
                .map(|(mv, score)| (mv.to_string(), *score as f64 / 100.0))
                .collect(),
            nodes: midgame.nodes(),
            seconds: start.elapsed().as_secs_f64(),
        };
        if args.output.json {
            cli::write_json(out, &row)?;
        } else {
            let moves: Vec<String> = row
                .moves
                .iter()
                .map(|(mv, score)| format!("{mv} {score:+.2}"))
                .collect();
            writeln!(
                out,
                "#{} ({} empties, depth {}, {} nodes, {:.2} s): {}",
                row.index,
                row.empties,
                row.depth,
                row.nodes,
                row.seconds,
                moves.join(", ")
            )?;
        }
    }
    Ok(())
}
