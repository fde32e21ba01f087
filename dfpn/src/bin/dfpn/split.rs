//! `dfpn split`: one threshold question as independent jobs, a `dfpn prove` command line
//! each, for GNU parallel or a Slurm array; `dfpn join` puts their proofs together.

use std::io::Write;
use std::path::PathBuf;

use dfpn::split::Split;
use engine::cli::{self, Failure};

#[derive(clap::Args)]
#[command(
    after_long_help = "Writes DIR/split.json (the question's tree down to the \
    frontier) and DIR/jobs.txt (one `dfpn prove` command line per job, its proof to \
    DIR/job-N.json). Run them anywhere:\n  parallel -j2 < DIR/jobs.txt\n  sbatch --array=1-JOBS \
    --wrap 'sed -n \"${SLURM_ARRAY_TASK_ID}p\" DIR/jobs.txt | sh'\nthen `dfpn join \
    DIR/split.json DIR/job-*.json --output PROOF` (`--status`: which jobs are still needed, \
    which can be cancelled)."
)]
pub struct Args {
    /// The position: an OBF line or a move list.
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    /// The score to reach, -64..=64 (odd values mean the next even one: scores are even).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(-64..=64))]
    threshold: i32,
    /// Plies from the position to the frontier (a pass is a ply); about ten jobs a ply in
    /// the midgame, fewer where transpositions meet.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    depth: u32,
    /// The directory of the split file, the jobs file and the jobs' proofs.
    #[arg(long)]
    dir: PathBuf,
    /// Options of every job's `dfpn prove` (`--threads 1 --hash-mb 1024`...).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    job_options: String,
    /// The evaluation that orders each node's moves (the jobs in the file's order meet
    /// the likely refutations first).
    #[command(flatten)]
    eval: cli::EvalArgs,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let position = engine::input::parse_position("--board", &args.board)?
        .0
        .position;
    let eval = args.eval.load()?;
    let rank = |child: &engine::Board| dfpn::search::ordering_value(&*eval, child);
    let split = Split::new(&position, args.threshold, args.depth, rank);
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.dir.display())))?;
    let split_path = args.dir.join("split.json");
    let json = serde_json::to_string(&split).expect("a split serialises");
    cli::write_file(&split_path, |w| Ok(w.write_all(json.as_bytes())?))?;
    let jobs_path = args.dir.join("jobs.txt");
    let lines: Vec<String> = split
        .jobs
        .iter()
        .enumerate()
        .map(|(job, &node)| {
            let node = &split.nodes[node];
            let proof = args.dir.join(format!("job-{job}.json"));
            format!(
                "dfpn prove --board '{}' --threshold {} --proof '{}' {}",
                node.position,
                node.threshold,
                proof.display(),
                args.job_options
            )
            .trim_end()
            .to_string()
        })
        .collect();
    cli::write_file(&jobs_path, |w| {
        Ok(w.write_all((lines.join("\n") + "\n").as_bytes())?)
    })?;
    writeln!(
        out,
        "{} jobs {} plies down from the question ({} nodes above them): {} and {}",
        split.jobs.len(),
        args.depth,
        split.nodes.len() - split.jobs.len(),
        split_path.display(),
        jobs_path.display()
    )?;
    Ok(())
}
