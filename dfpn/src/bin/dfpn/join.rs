//! `dfpn join`: the proofs of a split's jobs made one proof of its question, or where the
//! jobs stand.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use dfpn::proof::ProofFile;
use dfpn::split::{JoinError, Part, Split};
use engine::cli::{self, Failure};

#[derive(clap::Args)]
#[command(
    after_long_help = "--json: with --status, one object (holds, done, needed, \
    unnecessary); else one object (holds, nodes, parts, output)."
)]
pub struct Args {
    /// The split file (`dfpn split` writes DIR/split.json).
    split: PathBuf,
    /// The jobs' proofs done so far (DIR/job-*.json); each must answer a job of the
    /// split, and no job twice.
    parts: Vec<PathBuf>,
    /// Where to write the joined proof (check it with `dfpn check-proof`).
    #[arg(long, required_unless_present = "status")]
    output: Option<PathBuf>,
    /// Say which jobs are done, which the question still needs, which can be cancelled
    /// (their answers cannot change the root's) and which to start now (each node's
    /// eldest move first, as young brothers wait), instead of joining.
    #[arg(long)]
    status: bool,
    #[command(flatten)]
    output_format: cli::OutputArgs,
}

fn read<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<T, Failure> {
    let reader = engine::obf::open(path)?;
    serde_json::from_reader(reader).map_err(|e| {
        Failure::Input(format!(
            "{}:{}:{}: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let split: Split = read(&args.split)?;
    split
        .validate()
        .map_err(|e| Failure::Input(format!("{}: {e}", args.split.display())))?;
    let parts = args
        .parts
        .iter()
        .map(|path| {
            Ok(Part {
                name: path.display().to_string(),
                proof: read::<ProofFile>(path)?,
            })
        })
        .collect::<Result<Vec<Part>, Failure>>()?;
    if args.status {
        let answers = split.answers(&parts).map_err(Failure::input)?;
        let done: HashMap<usize, bool> = answers.iter().map(|(&j, &(h, _))| (j, h)).collect();
        let status = split.status(&done);
        if args.output_format.json {
            return cli::write_json(out, &status);
        }
        let jobs = |jobs: &[usize]| {
            let listed: Vec<String> = jobs.iter().map(usize::to_string).collect();
            format!("{} [{}]", jobs.len(), listed.join(" "))
        };
        let root = match status.holds {
            Some(true) => "holds",
            Some(false) => "fails",
            None => "undecided",
        };
        writeln!(out, "root: {root}")?;
        writeln!(out, "done: {}", jobs(&status.done))?;
        writeln!(out, "needed: {}", jobs(&status.needed))?;
        writeln!(out, "unnecessary (cancel): {}", jobs(&status.unnecessary))?;
        writeln!(out, "ready (start now): {}", jobs(&status.ready))?;
        return Ok(());
    }
    let joined = split.join(&parts).map_err(|e| match e {
        JoinError::Disagree { .. } => Failure::invalid(e),
        e => Failure::input(e),
    })?;
    let output = args
        .output
        .as_ref()
        .expect("clap requires it without --status");
    let json = serde_json::to_string(&joined).expect("a proof serialises");
    cli::write_file(output, |w| Ok(w.write_all(json.as_bytes())?))?;
    let holds = joined.nodes[0].holds;
    if args.output_format.json {
        return cli::write_json(
            out,
            &serde_json::json!({
                "holds": holds,
                "nodes": joined.nodes.len(),
                "parts": parts.len(),
                "output": output.display().to_string(),
            }),
        );
    }
    writeln!(
        out,
        "joined: the question {} ({} nodes from {} parts) in {}; check it with `dfpn check-proof {}`",
        if holds { "holds" } else { "fails" },
        joined.nodes.len(),
        parts.len(),
        output.display(),
        output.display()
    )?;
    Ok(())
}
