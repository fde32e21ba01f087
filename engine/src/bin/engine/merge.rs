//! `engine merge`: the JSON Lines of `--shard` runs of `engine solve` or `dfpn score/wld`
//! put back together: one table in file order, the totals, the check against the answers;
//! a missing, repeated or interrupted shard is an error, never a silent gap.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, Failure, Totals};

#[derive(clap::Args)]
pub struct Args {
    /// JSON Lines of `engine solve --json` or `dfpn score/wld --json` runs (shards of one
    /// file, each with its summary line).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// JSON Lines (one object per line, as `jq` reads them): the rows in file order, then
    /// the summary.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let mut rows: BTreeMap<u64, (String, serde_json::Value)> = BTreeMap::new();
    let mut summaries: Vec<(String, serde_json::Value)> = Vec::new();
    for read in cli::read_json_lines(&args.files)? {
        let (at, value) = (read.at(), read.value);
        if value["summary"] == true {
            summaries.push((at, value));
            continue;
        }
        let index = value["index"]
            .as_u64()
            .ok_or_else(|| Failure::Input(format!("{at}: a row without its index")))?;
        if let Some((first, _)) = rows.get(&index) {
            return Err(Failure::Input(format!(
                "position {index} is in {first} and again in {at}"
            )));
        }
        rows.insert(index, (at, value));
    }
    let file_positions = check_shards(&summaries)?;
    let missing: Vec<String> = (1..=file_positions as u64)
        .filter(|i| !rows.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        let shown = missing
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Failure::Input(format!(
            "{} of the file's {file_positions} positions are missing: {shown}{}",
            missing.len(),
            if missing.len() > 10 { ", ..." } else { "" }
        )));
    }
    if let Some((_, (first, _))) = rows.iter().find(|(&i, _)| i as usize > file_positions) {
        return Err(Failure::Input(format!(
            "{first}: a position beyond the file's {file_positions}"
        )));
    }
    let mut totals = Totals::new();
    totals.file_positions = file_positions;
    if !args.json {
        writeln!(
            out,
            "{:>4} {:>7} {:>5} {:>4} {:>9} {:>14}",
            "#", "empties", "score", "move", "seconds", "nodes"
        )?;
    }
    for (index, (_, row)) in &rows {
        let nodes = row["nodes"].as_u64().unwrap_or(0);
        let seconds = row["seconds"].as_f64().unwrap_or(0.0);
        let expected_ok = row["expected_ok"].as_bool();
        totals.add(nodes, seconds, expected_ok);
        if args.json {
            cli::write_json(out, row)?;
            continue;
        }
        let answer = match (row["wld"].as_str(), row["score"].as_i64()) {
            (Some(wld), _) => wld.to_string(),
            (None, Some(score)) => format!("{score:+}"),
            (None, None) => "?".into(),
        };
        writeln!(
            out,
            "{index:>4} {:>7} {answer:>5} {:>4} {seconds:>9.3} {nodes:>14}{}",
            row["empties"].as_u64().unwrap_or(0),
            row["best_move"].as_str().unwrap_or("--"),
            if expected_ok == Some(false) {
                "  MISMATCH"
            } else {
                ""
            }
        )?;
    }
    totals.finish(out, args.json, Default::default(), "")
}

/// The shards' summaries: one per shard, all of the same file and the same N, none
/// interrupted, every shard 1..N there. The file's number of positions.
fn check_shards(summaries: &[(String, serde_json::Value)]) -> Result<usize, Failure> {
    let Some((_, first)) = summaries.first() else {
        return Err(Failure::Input(
            "no summary line: give whole outputs of `--json` runs".into(),
        ));
    };
    let file_positions = first["file_positions"].as_u64().ok_or_else(|| {
        Failure::Input("a summary without file_positions (a run older than merge)".into())
    })? as usize;
    let mut shards: BTreeMap<usize, String> = BTreeMap::new();
    let mut count = None;
    for (at, summary) in summaries {
        if summary["interrupted"] == true {
            return Err(Failure::Input(format!(
                "{at}: that run was interrupted: run its shard again"
            )));
        }
        if summary["file_positions"].as_u64() != Some(file_positions as u64) {
            return Err(Failure::Input(format!(
                "{at}: a run over a file of {} positions, the others {file_positions}",
                summary["file_positions"]
            )));
        }
        let shard = summary["shard"].as_str().unwrap_or("1/1");
        let parsed = cli::parse_shard(shard).map_err(|e| Failure::Input(format!("{at}: {e}")))?;
        if count.is_some_and(|n| n != parsed.1) {
            return Err(Failure::Input(format!(
                "{at}: shard {shard} of a split other than the others'"
            )));
        }
        count = Some(parsed.1);
        if let Some(first) = shards.insert(parsed.0, at.clone()) {
            return Err(Failure::Input(format!(
                "shard {shard} is in {first} and again in {at}"
            )));
        }
    }
    let n = count.expect("one summary at least");
    if let Some(missing) = (1..=n).find(|i| !shards.contains_key(i)) {
        return Err(Failure::Input(format!("shard {missing}/{n} is missing")));
    }
    Ok(file_positions)
}
