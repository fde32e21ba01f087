use std::io::Write;
use std::path::PathBuf;

use dfpn::proof::{check, ProofFile, CHECK_LEAF_EMPTIES};
use engine::cli::{self, Failure};
use engine::search::Solver;

#[derive(clap::Args)]
pub struct Args {
    /// A proof file written by `dfpn prove --proof FILE`.
    file: PathBuf,
    /// Memory in MiB for the alpha-beta search that decides the leaves again.
    #[arg(long, default_value_t = 64, value_parser = cli::parse_memory_mb, allow_hyphen_values = true)]
    hash_mb: u64,
    /// Leaves with more empties are refused, not searched (an alpha-beta check far from
    /// the end would not finish); raise it for proofs made with a larger
    /// `prove --leaf-empties`.
    #[arg(long, default_value_t = CHECK_LEAF_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=60))]
    leaf_empties: u32,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let name = args.file.display();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| Failure::Input(format!("{name}: cannot read: {e}")))?;
    let file: ProofFile = serde_json::from_str(&text).map_err(|e| {
        Failure::Input(format!(
            "{name}:{}:{}: not a proof file: {e}",
            e.line(),
            e.column()
        ))
    })?;
    let solver = Solver::new(args.hash_mb as usize);
    match check(&file, &solver, args.leaf_empties) {
        Ok(verified) => {
            if args.json {
                cli::write_json(
                    out,
                    &serde_json::json!({ "valid": true, "proof": verified }),
                )?;
            } else {
                writeln!(
                    out,
                    "valid proof: {} scores {} {} ({} nodes, {} leaves decided again in {} nodes)",
                    verified.position,
                    if verified.holds {
                        "at least"
                    } else {
                        "less than"
                    },
                    verified.threshold,
                    verified.nodes,
                    verified.leaves,
                    verified.leaf_nodes
                )?;
            }
            Ok(())
        }
        Err(error) => {
            if args.json {
                cli::write_json(
                    out,
                    &serde_json::json!({ "valid": false, "error": error.to_string() }),
                )?;
            }
            Err(Failure::Invalid(format!("{name}: invalid proof: {error}")))
        }
    }
}
