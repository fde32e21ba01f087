use std::io::Write;
use std::path::PathBuf;

use dfpn::proof::{
    check_exact_until, check_until, CheckError, ExactProofFile, ProofFile, CHECK_LEAF_EMPTIES,
    EXACT_FORMAT, FORMAT,
};
use engine::cli::{self, Failure};
use engine::search::Solver;

#[derive(clap::Args)]
#[command(after_long_help = "--json: One JSON object.")]
pub struct Args {
    /// A proof file written by `dfpn prove --proof FILE`, or by `dfpn score/wld --proof
    /// DIR` (an exact score's two halves are checked together); `-`: standard input.
    file: PathBuf,
    #[command(flatten)]
    pub search: cli::SearchArgs,
    /// Leaves with more empties are refused, not searched (an alpha-beta check far from
    /// the end would not finish); raise it for proofs made with a larger
    /// `prove --leaf-empties` or `--easy-leaf-empties`.
    #[arg(long, default_value_t = CHECK_LEAF_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=60))]
    leaf_empties: u32,
    #[command(flatten)]
    output: cli::OutputArgs,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let name = args.file.display();
    // Parsed as it is read: a file that is not JSON (`/dev/zero`, a binary) stops at its
    // first byte, and memory holds the proof, never the text beside it.
    let reader = engine::obf::open(&args.file)?;
    let not_a_proof = |e: serde_json::Error| {
        Failure::Input(format!(
            "{name}:{}:{}: not a proof file: {e}",
            e.line(),
            e.column()
        ))
    };
    let value: serde_json::Value = serde_json::from_reader(reader).map_err(not_a_proof)?;
    // A file of another kind is malformed input (exit 2), as is one without a format; a
    // proof of the right kind that does not hold is what exit 1 says.
    if value["format"] != FORMAT && value["format"] != EXACT_FORMAT {
        return Err(Failure::Input(format!(
            "{name}: not a proof file: format {}, expected {FORMAT:?} or {EXACT_FORMAT:?}",
            value["format"]
        )));
    }
    let solver = Solver::new(args.search.hash.mb());
    let stop = cli::interrupt_flag();
    // The JSON of what was verified and the line saying so, or why the proof fails.
    let verdict = if value["format"] == EXACT_FORMAT {
        let file: ExactProofFile = serde_json::from_value(value).map_err(not_a_proof)?;
        check_exact_until(&file, &solver, args.leaf_empties, &stop).map(|v| {
            let halves = [&v.at_least, &v.below].into_iter().flatten();
            let (nodes, leaves, leaf_nodes) = halves.fold((0, 0, 0), |(n, l, ln), h| {
                (n + h.nodes, l + h.leaves, ln + h.leaf_nodes)
            });
            let line = format!(
                "valid proof: {} scores exactly {:+} ({nodes} nodes, {leaves} leaves decided again in {leaf_nodes} nodes)",
                v.position, v.score
            );
            (serde_json::json!(v), line)
        })
    } else {
        let file: ProofFile = serde_json::from_value(value).map_err(not_a_proof)?;
        check_until(&file, &solver, args.leaf_empties, &stop).map(|v| {
            let line = format!(
                "valid proof: {} scores {} {} ({} nodes, {} leaves decided again in {} nodes)",
                v.position,
                if v.holds { "at least" } else { "less than" },
                v.threshold,
                v.nodes,
                v.leaves,
                v.leaf_nodes
            );
            (serde_json::json!(v), line)
        })
    };
    match verdict {
        Ok((verified, line)) => {
            if args.output.json {
                cli::write_json(
                    out,
                    &serde_json::json!({ "valid": true, "proof": verified }),
                )?;
            } else {
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        // As the other batch commands end: a summary line, and no verdict either way.
        Err(CheckError::Interrupted) => {
            if args.output.json {
                cli::write_json(
                    out,
                    &serde_json::json!({ "valid": null, "interrupted": true }),
                )?;
            } else {
                writeln!(
                    out,
                    "interrupted: {name} was not checked to the end (no verdict)"
                )?;
            }
            Err(Failure::Interrupted)
        }
        Err(error) => {
            if args.output.json {
                cli::write_json(
                    out,
                    &serde_json::json!({ "valid": false, "error": error.to_string() }),
                )?;
            }
            Err(Failure::Invalid(format!("{name}: invalid proof: {error}")))
        }
    }
}
