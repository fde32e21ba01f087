use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use engine::cli::{self, Failure};
use engine::search::Solver;
use engine::train::datagen::{self, DatagenOptions};

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: Play only games I-1, I-1+N, ... of the GAMES, for clusters (`engine train` takes the shards' files, given all or joined with `cat`)."
)]
pub struct Args {
    /// Games to play: indices 0..GAMES (games already in the output are skipped).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// CSV file to append to (created with its header if missing).
    #[arg(short, long)]
    out: PathBuf,
    /// Positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,
    /// Label earlier positions by searches of this depth and one less with --eval (their
    /// mean, label `pairedD`: the evaluation's bias for the side to move cancels); 0: by
    /// the game's outcome (the exact score of its first solved position).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10))]
    label_depth: u32,
    /// Search depth of the self-play moves.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    play_depth: u32,
    /// Random moves at the start of each game, drawn from MIN-MAX.
    #[arg(long, default_value = "8-24", value_parser = parse_range)]
    opening: (u32, u32),
    /// Random noise added to self-play move scores, in hundredths of a disc.
    #[arg(long, default_value_t = 300)]
    noise: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    eval: cli::EvalArgs,
    /// `--hash-mb`: each thread's transposition table.
    #[command(flatten)]
    hash: cli::HashArgs<64>,
    #[command(flatten)]
    threads: cli::ThreadArgs,
    #[command(flatten)]
    shard: cli::ShardArgs,
}

fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = text.split_once('-').ok_or("expected MIN-MAX")?;
    let lo: u32 = lo.parse().map_err(|_| format!("{lo:?} is not a number"))?;
    let hi: u32 = hi.parse().map_err(|_| format!("{hi:?} is not a number"))?;
    if lo > hi || hi > 60 {
        return Err("expected MIN <= MAX <= 60".into());
    }
    Ok((lo, hi))
}

/// Opens the output for appending: creates it with the header, or drops a partial last
/// line left by an interrupted run. Returns the file and the games it already holds.
fn open_output(path: &PathBuf) -> Result<(File, std::collections::HashSet<u64>), Failure> {
    let name = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Failure::Input(format!("{name}: cannot read: {e}"))),
    };
    let rows = datagen::read(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Failure::Input(format!("{name}: cannot write: {e}")))?;
    let complete = datagen::complete_lines(&text).len();
    file.set_len(complete as u64)?;
    file.seek(SeekFrom::End(0))?;
    if complete == 0 {
        writeln!(file, "{}", datagen::HEADER)?;
    }
    Ok((file, datagen::games_done(&rows)))
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let eval = args.eval.load()?;
    let (file, done) = open_output(&args.out)?;
    let todo: Vec<u64> = (0..args.games)
        .filter(|g| match args.shard.part {
            Some((i, n)) => g % n as u64 == i as u64 - 1,
            None => true,
        })
        .filter(|g| !done.contains(g))
        .collect();
    let options = DatagenOptions {
        exact_empties: args.exact_empties,
        label_depth: args.label_depth,
        play_depth: args.play_depth,
        opening_plies: args.opening.0..=args.opening.1,
        noise: args.noise as i32,
        seed: args.seed,
    };
    let threads = cli::thread_count(args.threads.count);
    let stop = cli::interrupt_flag();
    let progress = cli::progress_bar(todo.len() as u64, "games");
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let rows_written = AtomicUsize::new(0);
    let games_written = AtomicUsize::new(0);
    let start = Instant::now();
    let worker = || -> Result<(), Failure> {
        // One thread per worker: the solver's own parallel splits would only add nodes.
        let pool = cli::thread_pool(Some(1))?;
        let solver = Solver::new(args.hash.mb()).with_eval(eval.clone());
        loop {
            let Some(&game) = todo.get(next.fetch_add(1, Relaxed)) else {
                return Ok(());
            };
            let Some(rows) =
                pool.install(|| datagen::play_game(game, &options, &*eval, &solver, &stop))
            else {
                return Ok(());
            };
            let text = datagen::csv_lines(&rows);
            file.lock()
                .expect("no writer panicked")
                .write_all(text.as_bytes())?;
            rows_written.fetch_add(rows.len(), Relaxed);
            games_written.fetch_add(1, Relaxed);
            progress.inc(1);
        }
    };
    let results: Vec<Result<(), Failure>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no worker panicked"))
            .collect()
    });
    progress.finish_and_clear();
    results.into_iter().collect::<Result<Vec<()>, Failure>>()?;
    writeln!(
        out,
        "{} games, {} positions written to {} in {:.1} s ({} games were already there)",
        games_written.load(Relaxed),
        rows_written.load(Relaxed),
        args.out.display(),
        start.elapsed().as_secs_f64(),
        done.len()
    )?;
    if stop.load(Relaxed) {
        return Err(Failure::Interrupted);
    }
    Ok(())
}
