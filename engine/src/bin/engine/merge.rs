//! `engine merge`: the JSON Lines of `--shard` runs of `engine solve` or `dfpn score/wld`
//! put back together (one table in file order, the totals, the check against the answers),
//! or of `engine perft` (each depth's counts added up over the shards); a missing, repeated
//! or interrupted shard is an error, never a silent gap.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, seal, Failure, Totals};

use crate::perft::Row;

#[derive(clap::Args)]
#[command(after_long_help = "--json: the rows in file order, then the summary.")]
pub struct Args {
    /// JSON Lines of `engine solve --json` or `dfpn score/wld --json` runs (shards of one
    /// file, each with its summary line), or of `engine perft --shard I/N --json` runs (the
    /// shards of one count).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    output: cli::OutputArgs,
    #[command(flatten)]
    trust: seal::Trust,
}

/// The commands whose rows `merge` puts together (besides perft's).
const COMMANDS: [&str; 4] = ["engine solve", "dfpn score", "dfpn wld", "dfpn prove"];

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let read = seal::read_parts(&args.files, args.trust)?;
    if read.iter().any(|r| r.value["command"] == "perft") {
        seal::check_rows(&read, args.trust)?;
        let lines = read.into_iter().map(|r| (r.at(), r.value)).collect();
        return merge_perft(lines, args.output.json, out);
    }
    if let Some(other) = read
        .iter()
        .find(|r| r.value["summary"] != true && r.value.get("empties").is_none())
    {
        return Err(Failure::Input(format!(
            "{}: not a row of `engine solve` or `dfpn score/wld/prove` (retro's rows merge with `retro merge`)",
            other.at()
        )));
    }
    let parts = seal::check_parts(&read, &COMMANDS, args.trust)?;
    let (rows, summaries) = cli::rows_by_index(read)?;
    let file_positions = check_shards(&summaries)?;
    check_complete(&rows, file_positions)?;
    let mut totals = Totals::new();
    totals.file_positions = file_positions;
    totals.run = parts.run.map(|(run, _)| run);
    write_rows(out, &rows, &mut totals, args.output.json)?;
    let mut extra = serde_json::Map::new();
    let mut note = String::new();
    if parts.unvouched > 0 {
        extra.insert("unsealed_rows".into(), parts.unvouched.into());
        note = format!(", {} rows taken without a sealed summary", parts.unvouched);
    }
    totals.finish(out, args.output.json, extra, &note)
}

/// Every position of the file has a row, and none lies beyond it.
fn check_complete(rows: &cli::RowsByIndex, file_positions: usize) -> Result<(), Failure> {
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
    Ok(())
}

/// The merged rows in file order, as a table or JSON Lines, counted into `totals`.
fn write_rows(
    out: &mut impl Write,
    rows: &cli::RowsByIndex,
    totals: &mut Totals,
    json: bool,
) -> Result<(), Failure> {
    if !json {
        // The answers' column named as the runs named it (win/draw/loss rows say "wld").
        let answer = match rows.values().all(|(_, row)| row["wld"].is_string()) {
            true => "wld",
            false => "score",
        };
        writeln!(
            out,
            "{:>4} {:>7} {answer:>5} {:>4} {:>9} {:>14}",
            "#", "empties", "move", "seconds", "nodes"
        )?;
    }
    for (index, (_, row)) in rows {
        let nodes = row["nodes"].as_u64().unwrap_or(0);
        let seconds = row["seconds"].as_f64().unwrap_or(0.0);
        let expected_ok = row["expected_ok"].as_bool();
        match row["unknown"] == true {
            true => totals.add_unknown(nodes, seconds),
            false => totals.add(nodes, seconds, expected_ok),
        }
        if json {
            let line = totals.json_row(row);
            writeln!(out, "{line}")?;
            continue;
        }
        let answer = cli::row_answer(row);
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
    Ok(())
}

/// The shards' summaries: all of the same file, none interrupted, every position in one
/// shard (of one split or of splits that nest, [`cli::Split`]). The file's number of
/// positions.
fn check_shards(summaries: &[(String, serde_json::Value)]) -> Result<usize, Failure> {
    let Some((_, first)) = summaries.first() else {
        return Err(Failure::Input(
            "no summary line: give whole outputs of `--json` runs".into(),
        ));
    };
    let file_positions = first["file_positions"].as_u64().ok_or_else(|| {
        Failure::Input("a summary without file_positions (a run older than merge)".into())
    })? as usize;
    let mut shards = cli::Split::default();
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
        shards.add(shard, (), at).map_err(Failure::Input)?;
    }
    shards.complete().map_err(Failure::Input)?;
    Ok(file_positions)
}

/// Perft shards: per depth, shards of one count (same position, same split ply) holding
/// every subtree once (splits may nest, [`cli::Split`]); their counts added up.
fn merge_perft(
    lines: Vec<(String, serde_json::Value)>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    // Per depth, the rows of its shards; the first row fixes the position.
    let mut depths: BTreeMap<u32, cli::Split<Row>> = BTreeMap::new();
    let mut first: Option<(String, String)> = None;
    for (at, value) in lines {
        // An interrupted run's last line: its complete depths are its rows.
        if value["summary"] == true && value["command"] == "perft" {
            continue;
        }
        if value["command"] != "perft" {
            return Err(Failure::Input(format!(
                "{at}: not a row of `engine perft --json`, among perft rows"
            )));
        }
        let row: Row = serde_json::from_value(value)
            .map_err(|e| Failure::Input(format!("{at}: not a perft row ({e})")))?;
        let shard = row.shard.clone().unwrap_or_else(|| "1/1".into());
        if let Some((first_at, first_board)) = &first {
            if row.board != *first_board {
                return Err(Failure::Input(format!(
                    "{at}: shard {shard} of another count than {first_at} (another position)"
                )));
            }
        } else {
            first = Some((at.clone(), row.board.clone()));
        }
        let shards = depths.entry(row.depth).or_default();
        if let Some(other) = shards.first() {
            if other.split_plies != row.split_plies {
                return Err(Failure::Input(format!(
                    "{at}: depth {} split at {} plies, the other shards at {}",
                    row.depth, row.split_plies, other.split_plies
                )));
            }
        }
        let depth = row.depth;
        shards
            .add(&shard, row, &at)
            .map_err(|e| Failure::Input(format!("depth {depth}: {e}")))?;
    }
    first.ok_or_else(|| Failure::Input("no perft rows".into()))?;
    let mut merged = Vec::new();
    for (depth, shards) in depths {
        let shards = shards
            .complete()
            .map_err(|e| Failure::Input(format!("depth {depth}: {e} (interrupted, or not run)")))?;
        let mut rows = shards.into_iter();
        let mut total = rows.next().expect("shard 1");
        for row in rows {
            total.leaves += row.leaves;
            total.passes += row.passes;
            total.finished += row.finished;
            total.games += row.games;
            total.subtrees += row.subtrees;
            total.seconds += row.seconds;
        }
        total.shard = None;
        total.leaves_per_second = total.leaves as f64 / total.seconds.max(1e-9);
        merged.push(total);
    }
    if !json {
        crate::perft::write_header(out)?;
    }
    for row in &merged {
        crate::perft::write_row(out, row, json)?;
    }
    Ok(())
}
