//! `dfpn`: threshold questions ("does the side to move score at least t?"), exact scores by
//! binary search, win/draw/loss, and checkable proofs.

mod bench;
mod check;
mod compare;
mod join;
mod prove;
mod score;
mod split;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dfpn::{Aggregation, Initial, Options};
use engine::cli;
use engine::memory::share_mb;

#[derive(Parser)]
#[command(
    name = "dfpn",
    version,
    arg_required_else_help = true,
    about = "Proof-number search for Othello endgames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Does the side to move score at least THRESHOLD? PROVEN or DISPROVEN.
    Prove(prove::Args),
    /// Exact score and best move by binary search over thresholds.
    Score(score::Args),
    /// Win, draw or loss for the side to move (two threshold questions).
    Wld(score::Args),
    /// Check a proof file written by `prove --proof` from scratch.
    CheckProof(check::Args),
    /// Each threshold question by df-pn and by null-window alpha-beta, side by side.
    Bench(bench::Args),
    /// One question as independent jobs (a `dfpn prove` command line each) for many
    /// machines: the question's tree down to a frontier, a job per position there.
    Split(split::Args),
    /// The proofs of a split's jobs joined into one proof of its question, or (--status)
    /// which jobs are still needed and which can be cancelled.
    Join(join::Args),
    /// Two runs over the same positions side by side (`dfpn wld` against `engine solve
    /// --wld`...): per position each run's seconds and nodes and their ratios.
    Compare(compare::Args),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(cli::CompletionsArgs),
    /// Man pages of this tool and each of its commands, written into a directory.
    Manual(cli::ManualArgs),
}

/// The prover's settings, shared by the commands that prove.
///
/// `--hash-mb`: three quarters for the proof-number table, a quarter for the alpha-beta
/// leaves' table (`engine::memory::share_mb`). `--threads`: the alpha-beta searches' (the
/// leaves, which split over them, and the guess of `score` and `wld`); `--tree-threads`:
/// df-pn's, which search the tree together over the shared table (one by default; more
/// suit small leaves, which do not split: each thread then searches its leaves alone).
/// `--threads 1` gives the same node counts run after run.
#[derive(clap::Args)]
#[command(after_long_help = "--json: one per position, then a summary.")]
pub struct ProverArgs {
    #[command(flatten)]
    pub resources: cli::SearchArgs,
    /// Threads searching the proof-number tree together over one table (1: the leaves'
    /// searches split over --threads instead; more suit small leaves, which do not split,
    /// for example --leaf-empties 16 --easy-leaf-empties 20 --tree-threads 2 on 2 cores).
    #[arg(long, default_value_t = Options::default().tree_threads as u32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    tree_threads: u32,
    /// Decide positions with at most this many empties by null-window alpha-beta.
    #[arg(long, default_value_t = Options::default().leaf_empties, value_parser = clap::value_parser!(u32).range(0..=60))]
    leaf_empties: u32,
    /// Also decide by alpha-beta the positions with at most this many empties whose
    /// evaluation lies --easy-margin discs or more above the threshold (0: none).
    #[arg(long, default_value_t = Options::default().easy_leaf_empties, value_parser = clap::value_parser!(u32).range(0..=60))]
    easy_leaf_empties: u32,
    /// Discs of the evaluation above the threshold that make a position of at most
    /// --easy-leaf-empties empties a leaf.
    #[arg(long, default_value_t = Options::default().easy_margin, value_parser = clap::value_parser!(i32).range(0..=128))]
    easy_margin: i32,
    /// First proof and disproof numbers of a new node.
    #[arg(long, value_enum, default_value_t = Options::default().initial)]
    initial: Initial,
    /// How a node's disproof number sums its children (weak: WPNS).
    #[arg(long, value_enum, default_value_t = Aggregation::Weak)]
    aggregation: Aggregation,
    /// From this many empties, `score` and `wld` first guess the score with the engine's
    /// selective search and ask the thresholds around it first (61: never guess).
    #[arg(long, default_value_t = Options::default().guess_empties, value_parser = clap::value_parser!(u32).range(0..=61))]
    guess_empties: u32,
    /// The 1+epsilon trick's epsilon (0: plain df-pn thresholds).
    #[arg(long, default_value_t = Options::default().epsilon, allow_negative_numbers = true)]
    epsilon: f64,
    /// Where the question's side expects a proof, a move not yet searched counts its first
    /// estimate this many times against one already searched (1: no preference).
    #[arg(long, default_value_t = Options::default().estimate_factor, allow_negative_numbers = true)]
    estimate_factor: f64,
    #[command(flatten)]
    eval: cli::EvalArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

impl ProverArgs {
    /// A prover with these settings.
    pub fn prover(&self) -> Result<dfpn::Prover, cli::Failure> {
        Ok(dfpn::Prover::new(self.options()?).with_eval(self.eval.load()?))
    }

    pub fn options(&self) -> Result<Options, cli::Failure> {
        within("--epsilon", self.epsilon, 0.0..=16.0)?;
        within("--estimate-factor", self.estimate_factor, 1.0..=16.0)?;
        let mb = self.resources.hash.mb();
        Ok(Options {
            leaf_empties: self.leaf_empties,
            easy_leaf_empties: self.easy_leaf_empties,
            easy_margin: self.easy_margin,
            initial: self.initial,
            aggregation: self.aggregation,
            epsilon: self.epsilon,
            estimate_factor: self.estimate_factor,
            table_mb: share_mb(mb, 3, 4),
            leaf_table_mb: share_mb(mb, 1, 4),
            guess_empties: self.guess_empties,
            tree_threads: self.tree_threads as usize,
        })
    }
}

/// The one-line input error if `value` of the option `flag` lies outside `range` (clap
/// checks whole numbers' ranges, not those of decimals).
fn within(
    flag: &str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
) -> Result<(), cli::Failure> {
    match range.contains(&value) {
        true => Ok(()),
        false => Err(cli::Failure::Input(format!(
            "{flag} must lie in {}..={}, found {value}",
            range.start(),
            range.end()
        ))),
    }
}

/// Shows the prover's node count in the progress bar's message (stderr).
pub fn show_progress(prover: &mut dfpn::Prover, progress: &indicatif::ProgressBar) {
    let progress = progress.clone();
    prover.on_progress(move |stats| {
        progress.set_message(format!("{:.1} M nodes", stats.nodes() as f64 / 1e6));
    });
}

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // The alpha-beta searches (and the proof checker's leaves) split their work in this pool.
    let threads = match &cli.command {
        Command::Prove(args) => args.search.resources.threads.count,
        Command::Score(args) | Command::Wld(args) => args.search.resources.threads.count,
        Command::Bench(args) => args.search.resources.threads.count,
        Command::CheckProof(args) => args.search.threads.count,
        Command::Compare(_)
        | Command::Split(_)
        | Command::Join(_)
        | Command::Completions(_)
        | Command::Manual(_) => Some(1),
    };
    let pool = match cli::thread_pool(threads) {
        Ok(pool) => pool,
        Err(failure) => return cli::exit_code("dfpn", Err(failure)),
    };
    let result = pool.install(|| {
        let mut out = io::stdout().lock();
        match cli.command {
            Command::Prove(args) => prove::run(&args, &mut out),
            Command::Score(args) => score::run(&args, false, &mut out),
            Command::Wld(args) => score::run(&args, true, &mut out),
            Command::CheckProof(args) => check::run(&args, &mut out),
            Command::Bench(args) => bench::run(&args, &mut out),
            Command::Compare(args) => compare::run(&args, &mut out),
            Command::Split(args) => split::run(&args, &mut out),
            Command::Join(args) => join::run(&args, &mut out),
            Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
            Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
        }
    });
    cli::exit_code("dfpn", result)
}
