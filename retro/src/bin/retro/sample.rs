//! `retro sample`: positions of random games with given numbers of discs, or random
//! boards, as OBF lines.

use std::io::Write;

use engine::cli::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// Disc counts, e.g. 20,24,28.
    #[arg(long, value_delimiter = ',', required_unless_present = "random_boards",
          value_parser = clap::value_parser!(u32).range(4..=64))]
    discs: Vec<u32>,
    /// Instead: positions drawn uniformly from all boards with the centre occupied (each
    /// other square empty, black or white) and either side to move: 2^5 * 3^60 positions,
    /// a superset of the legal ones, so the fraction reachable estimates their number.
    #[arg(long, conflicts_with = "discs")]
    random_boards: bool,
    /// Positions per disc count (with --random-boards: in all).
    #[arg(long, default_value_t = 50)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    if args.random_boards {
        writeln!(
            out,
            "% retro sample --random-boards --count {} --seed {}",
            args.count, args.seed
        )?;
        for p in retro::sample::random_positions(args.count, args.seed) {
            writeln!(out, "{}", engine::Obf::new(p))?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "% retro sample --discs {} --count {} --seed {}",
        args.discs
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
        args.count,
        args.seed
    )?;
    for &discs in &args.discs {
        for p in retro::sample::random_game_positions(discs, args.count, args.seed) {
            writeln!(out, "{}", engine::Obf::new(p))?;
        }
    }
    Ok(())
}
