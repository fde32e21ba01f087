//! `retro merge`: the JSON of `retro check --shard I/N` runs put back together, counted by
//! answer and method, and for random boards the estimate of the number of legal positions;
//! or the rows of `retro enumerate --shard I/N` runs, a level's partitions added up; or
//! those of `retro maxmob --by-ply --shard I/N` runs (in `maxmob`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, seal, Failure};
use retro::estimate::{estimate, random_board_space, z_score};

use crate::check::row_index;
use crate::plots;
use crate::reach::unchecked_no;

#[derive(clap::Args)]
#[command(
    after_long_help = "--json: Write the merged rows, ordered by position, and the summary as JSON lines (as one `retro check --json` run writes them)."
)]
pub struct Args {
    /// Output files of `retro check --json` (shards of one file, in any order, and reruns
    /// of what they left UNKNOWN with `check --done`), of
    /// `retro enumerate --json` (shards of one count), or of `retro maxmob --by-ply --json`
    /// (shards of one curve). Parts of splits that nest, as 6/64 with 6/128 and 70/128, may
    /// be mixed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The positions are `retro sample --random-boards`: estimate the number of legal
    /// positions from the fraction reachable (Wilson interval; UNKNOWN, and "no"s without a
    /// checked proof, counted both ways).
    #[arg(long)]
    estimate: bool,
    /// Confidence level of the interval: 0.9, 0.95, 0.99, 0.995 or 0.999.
    #[arg(long, default_value_t = 0.995, requires = "estimate")]
    confidence: f64,
    #[command(flatten)]
    output: cli::OutputArgs,
    /// Draw a cactus plot (SVG): per method, the positions it decided against the seconds
    /// each took, sorted (the usual way to compare solvers over a set of questions).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Draw the seconds of the positions decided by their number of discs (SVG: per disc
    /// count the median, the 90th percentile and the slowest, and the share decided), the
    /// discs read from the file of positions the rows answer (`--positions`).
    #[arg(long, value_name = "FILE.svg", requires = "positions")]
    plot_discs: Option<PathBuf>,
    /// The file of positions that the rows answer (OBF, CSV or games, as given to `check`),
    /// for `--plot-discs`.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Draw the estimate's interval after the first n boards, n growing to the whole
    /// sample in the sample's order (SVG): how far more boards narrow it.
    #[arg(long, value_name = "FILE.svg", requires = "estimate")]
    plot_estimate: Option<PathBuf>,
    #[command(flatten)]
    trust: seal::Trust,
}

/// The runs' shards in a line: "25 runs: shards 1-15 of 50, 10 of them again" where every
/// run names a shard of one count (a cluster's parts and their reruns), else each run's
/// shard as it names it.
fn shard_summary(shards: &[String]) -> String {
    if shards.is_empty() {
        // Files cut off before their summary line (a killed run).
        return "no run's summary".into();
    }
    let parsed: Option<Vec<(usize, usize)>> =
        shards.iter().map(|s| cli::parse_shard(s).ok()).collect();
    let runs = format!(
        "{} run{}",
        shards.len(),
        if shards.len() == 1 { "" } else { "s" }
    );
    let Some(parsed) = parsed.filter(|p| p.iter().all(|&(_, n)| n == p[0].1)) else {
        return format!("{runs}: {}", shards.join(" "));
    };
    let mut parts: Vec<usize> = parsed.iter().map(|&(i, _)| i).collect();
    parts.sort_unstable();
    parts.dedup();
    // Consecutive parts as ranges.
    let mut ranges: Vec<String> = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        let mut end = k;
        while end + 1 < parts.len() && parts[end + 1] == parts[end] + 1 {
            end += 1;
        }
        ranges.push(if end == k {
            parts[k].to_string()
        } else {
            format!("{}-{}", parts[k], parts[end])
        });
        k = end + 1;
    }
    let again = parsed.len() - parts.len();
    format!(
        "{runs}: shard{} {} of {}{}",
        if parts.len() == 1 { "" } else { "s" },
        ranges.join(", "),
        parsed[0].1,
        if again > 0 {
            format!(", {again} of them again")
        } else {
            String::new()
        }
    )
}

/// How `merge` names an answer.
fn answer_word(reachable: bool) -> &'static str {
    if reachable {
        "reachable"
    } else {
        "unreachable"
    }
}

/// Per (answer, method): positions and seconds.
type Tally = BTreeMap<(String, String), (u64, f64)>;

/// Per position: its row, and where it was read (file:line).
type ReadRows = BTreeMap<u64, (serde_json::Value, String)>;

/// What the parts' summaries say of their runs.
#[derive(Default)]
struct Runs {
    /// Each run's shard ("all" for a whole run).
    shards: Vec<String>,
    /// Where an interrupted run's summary was read.
    interrupted: Vec<String>,
    /// Wall seconds, summed.
    seconds: f64,
    /// Processor seconds, summed over the summaries that give them (older runs did not),
    /// and how many did.
    cpu_seconds: (f64, u64),
}

/// The positions counted by answer: reachable, unreachable, unknown, and the "no"s
/// without a checked proof; per answer and method, positions and seconds.
struct Counts {
    answers: [u64; 3],
    unchecked: u64,
    tally: Tally,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    if z_score(args.confidence).is_none() {
        return Err(Failure::Input(format!(
            "--confidence {}: one of 0.9, 0.95, 0.99, 0.995, 0.999",
            args.confidence
        )));
    }
    let lines = seal::read_parts(&args.files, args.trust)?;
    let first = &lines[0];
    if first.value.get("empties").is_some() {
        return Err(Failure::Input(format!(
            "{}: a row of `engine solve` or `dfpn` (those merge with `engine merge`)",
            first.at()
        )));
    }
    if lines
        .iter()
        .any(|read| read.value["command"] == "enumerate")
    {
        seal::check_rows(&lines, args.trust)?;
        return merge_levels(lines, args.output.json, out);
    }
    if lines.iter().any(|read| read.value["command"] == "maxmob") {
        seal::check_rows(&lines, args.trust)?;
        return crate::maxmob::merge(lines, args.output.json, out);
    }
    let parts = seal::check_parts(&lines, &["retro check"], args.trust)?;
    let (read_rows, runs) = collect(lines)?;
    check_whole(&read_rows, &parts)?;
    let rows: BTreeMap<u64, serde_json::Value> = read_rows
        .into_iter()
        .map(|(i, (row, _))| (i, row))
        .collect();
    let counts = count(&rows);
    let [reachable, _, unknown] = counts.answers;
    let estimated = args
        .estimate
        .then(|| {
            // A "no" without a checked proof is not an answer the estimate rests on.
            estimate(
                rows.len() as u64,
                reachable,
                unknown + counts.unchecked,
                args.confidence,
                random_board_space(),
            )
        })
        .flatten();
    draw(args, &rows)?;
    if args.output.json {
        return write_json(out, &rows, &counts, &runs, &estimated, parts);
    }
    write_text(out, args, &counts, &runs, &estimated, parts.unvouched)
}

/// The rows by position, a rerun's answer over the UNKNOWN it replaces, and what the
/// summaries say of their runs.
fn collect(lines: Vec<cli::JsonLine>) -> Result<(ReadRows, Runs), Failure> {
    let mut read_rows = ReadRows::new();
    let mut runs = Runs::default();
    for read in lines {
        let bad = |why: &str| Failure::Input(format!("{}: {why}", read.at()));
        let value = &read.value;
        if value["summary"] == true {
            runs.seconds += value["seconds"].as_f64().unwrap_or(0.0);
            if let Some(cpu) = value["cpu_seconds"].as_f64() {
                runs.cpu_seconds = (runs.cpu_seconds.0 + cpu, runs.cpu_seconds.1 + 1);
            }
            runs.shards
                .push(value["shard"].as_str().unwrap_or("all").to_string());
            if value["interrupted"] == true {
                runs.interrupted.push(read.at());
            }
            continue;
        }
        let index = row_index(&read)?;
        // A rerun (`check --done`) answers again only what was left UNKNOWN or unchecked:
        // its answer replaces that row, and of two UNKNOWN rows the longer try stands
        // (by processor time where both give it: wall time counts the machine's load). A
        // position decided twice otherwise is a part read twice, or answers that disagree.
        if let Some((row, other)) = read_rows.get(&index) {
            let key = if row["cpu_seconds"].is_f64() && value["cpu_seconds"].is_f64() {
                "cpu_seconds"
            } else {
                "seconds"
            };
            let seconds = |row: &serde_json::Value| row[key].as_f64().unwrap_or(0.0);
            match (row["reachable"].as_bool(), value["reachable"].as_bool()) {
                (Some(old), Some(new)) if old != new => {
                    return Err(bad(&format!(
                        "position {index} is {}, but {} at {other}",
                        answer_word(new),
                        answer_word(old)
                    )))
                }
                // A "no" with a checked proof stands over the same "no" without one.
                (Some(_), Some(_)) if unchecked_no(value) && !unchecked_no(row) => continue,
                (Some(_), Some(_)) if unchecked_no(row) && !unchecked_no(value) => {}
                (Some(_), Some(_)) => {
                    return Err(bad(&format!(
                        "position {index} is also answered at {other}"
                    )))
                }
                (Some(_), None) => continue,
                (None, None) if seconds(row) >= seconds(value) => continue,
                (None, _) => {}
            }
        }
        let at = read.at();
        read_rows.insert(index, (read.value, at));
    }
    Ok((read_rows, runs))
}

/// Every position of the file has a row, and none is beyond it, where a sealed summary
/// says how many it holds: a part missing is an error, not a smaller count.
fn check_whole(read_rows: &ReadRows, parts: &seal::Parts) -> Result<(), Failure> {
    let Some((run, at)) = &parts.run else {
        return Ok(());
    };
    let file_positions = run.positions as u64;
    if let Some((index, (_, where_read))) = read_rows.range(file_positions + 1..).next() {
        return Err(Failure::Input(format!(
            "{where_read}: position {index}, but the file of {at} holds {file_positions}"
        )));
    }
    let missing: Vec<String> = (1..=file_positions)
        .filter(|i| !read_rows.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Failure::Input(format!(
            "{} of the file's {file_positions} positions have no row (a part missing?): {}{}",
            missing.len(),
            missing[..missing.len().min(10)].join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        )));
    }
    Ok(())
}

fn count(rows: &BTreeMap<u64, serde_json::Value>) -> Counts {
    let mut counts = Counts {
        answers: [0; 3],
        unchecked: 0,
        tally: Tally::new(),
    };
    for row in rows.values() {
        let answer = match row["reachable"].as_bool() {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        };
        counts.answers[answer] += 1;
        let name = ["REACHABLE", "UNREACHABLE", "UNKNOWN"][answer].to_string();
        let mut method = row["method"].as_str().unwrap_or("-").to_string();
        if unchecked_no(row) {
            counts.unchecked += 1;
            method += " (unchecked)";
        }
        let entry = counts.tally.entry((name, method)).or_default();
        entry.0 += 1;
        entry.1 += row["seconds"].as_f64().unwrap_or(0.0);
    }
    counts
}

/// The plots asked for.
fn draw(args: &Args, rows: &BTreeMap<u64, serde_json::Value>) -> Result<(), Failure> {
    let drawn = |path: &PathBuf, result: Result<(), Box<dyn std::error::Error>>| {
        result.map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
    };
    if let Some(path) = &args.plot {
        drawn(path, plots::cactus(path, rows, &args.files))?;
    }
    if let (Some(path), Some(file)) = (&args.plot_discs, &args.positions) {
        drawn(path, plots::by_discs(path, rows, &discs_per_line(file)?))?;
    }
    if let Some(path) = &args.plot_estimate {
        drawn(path, plots::estimate_growth(path, rows, args.confidence))?;
    }
    Ok(())
}

/// The merged rows by position and the summary, as one `retro check --json` run writes
/// them, the summary sealed as a run's so that the merged file merges again.
fn write_json(
    out: &mut impl Write,
    rows: &BTreeMap<u64, serde_json::Value>,
    counts: &Counts,
    runs: &Runs,
    estimated: &Option<retro::estimate::Estimate>,
    parts: seal::Parts,
) -> Result<(), Failure> {
    let mut digest = seal::RowDigest::default();
    for row in rows.values() {
        digest.add(row);
        cli::write_json(out, row)?;
    }
    let by_method: Vec<serde_json::Value> = counts
        .tally
        .iter()
        .map(|((answer, method), (n, s))| {
            serde_json::json!({"answer": answer, "method": method, "positions": n, "seconds": s})
        })
        .collect();
    let [reachable, unreachable, unknown] = counts.answers;
    let serde_json::Value::Object(mut summary) = serde_json::json!({"summary": true,
        "positions": rows.len(), "reachable": reachable, "unreachable": unreachable,
        "unchecked": counts.unchecked, "unknown": unknown, "seconds": runs.seconds,
        "cpu_seconds": (runs.cpu_seconds.1 > 0).then_some(runs.cpu_seconds.0),
        "cpu_seconds_shards": runs.cpu_seconds.1, "interrupted": !runs.interrupted.is_empty(),
        "shards": runs.shards, "by_method": by_method, "estimate": estimated,
        "unsealed_rows": parts.unvouched})
    else {
        unreachable!("a summary is an object")
    };
    if let Some((run, _)) = parts.run {
        summary.insert(
            "run".into(),
            serde_json::to_value(run).expect("a run serialises"),
        );
        digest.write_into(&mut summary);
        seal::seal(&mut summary);
    }
    cli::write_json(out, &summary)
}

/// The merge as a table: the runs, the positions by answer and method, the totals and
/// the estimate.
fn write_text(
    out: &mut impl Write,
    args: &Args,
    counts: &Counts,
    runs: &Runs,
    estimated: &Option<retro::estimate::Estimate>,
    unvouched: u64,
) -> Result<(), Failure> {
    writeln!(
        out,
        "{} files, {}{}",
        args.files.len(),
        shard_summary(&runs.shards),
        if runs.interrupted.is_empty() {
            String::new()
        } else {
            format!(" (interrupted: {})", runs.interrupted.join(" "))
        }
    )?;
    writeln!(
        out,
        "{:<12} {:<11} {:>10} {:>12}",
        "answer", "method", "positions", "seconds"
    )?;
    for ((answer, method), (n, s)) in &counts.tally {
        writeln!(out, "{answer:<12} {method:<11} {n:>10} {s:>12.1}")?;
    }
    if unvouched > 0 {
        writeln!(
            out,
            "{unvouched} rows taken without a sealed summary vouching for them (--unsealed)"
        )?;
    }
    let [reachable, unreachable, unknown] = counts.answers;
    let positions = reachable + unreachable + unknown;
    writeln!(
        out,
        "total: {positions} positions, {reachable} reachable, {unreachable} unreachable{}, {unknown} unknown, {:.1} s wall in all shards{}",
        if counts.unchecked > 0 {
            format!(" ({} of them without a checked proof)", counts.unchecked)
        } else {
            String::new()
        },
        runs.seconds,
        match runs.cpu_seconds {
            (_, 0) => String::new(),
            (cpu, n) => format!(", {cpu:.1} s of processor time in the {n} that say it"),
        }
    )?;
    if let Some(e) = estimated {
        writeln!(
            out,
            "estimate: {:.3e} to {:.3e} legal positions ({}% Wilson interval; fraction reachable {:.3e} to {:.3e}; positions: discs of both colours and the side to move, of 2^5 * 3^60 = {:.3e})",
            e.positions.0,
            e.positions.1,
            e.confidence * 100.0,
            e.fraction.0,
            e.fraction.1,
            random_board_space()
        )?;
    }
    Ok(())
}

/// The number of discs of each line's position in a file of positions, as `check` numbers
/// its rows (a CSV line is one board, asked with either side to move).
fn discs_per_line(file: &std::path::Path) -> Result<Vec<u32>, Failure> {
    let discs = |board: engine::Board| 64 - board.empties().count_ones();
    let csv = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    Ok(if csv {
        engine::input::read_bitboard_csv(file)?
            .into_iter()
            .map(|(_, board)| discs(board))
            .collect()
    } else {
        engine::input::read_positions(file, None)?
            .into_iter()
            .map(|(_, obf)| discs(obf.position.board))
            .collect()
    })
}

/// One level of `retro enumerate` as merged: its counts, and from how many partitions.
#[derive(Default)]
struct MergedLevel {
    /// Positions and classes of each partition.
    shards: cli::Split<(u64, Option<u64>)>,
    /// Where the level was seen whole, with its counts.
    whole: Option<(String, u64, Option<u64>)>,
}

/// `retro enumerate` rows: a level counted whole in several runs must agree; a level split
/// into partitions needs every position in one part (splits may nest, [`cli::Split`]), and
/// their counts add up.
fn merge_levels(
    lines: Vec<cli::JsonLine>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut levels: BTreeMap<(String, u64), MergedLevel> = BTreeMap::new();
    for read in lines {
        let at = read.at();
        let bad = |why: &str| Failure::Input(format!("{at}: {why}"));
        let value = &read.value;
        if value["command"] != "enumerate" {
            return Err(bad(
                "not a row of `retro enumerate --json`, among such rows",
            ));
        }
        // An interrupted run's last line: the levels above it are its rows.
        if value["summary"] == true {
            continue;
        }
        let (label, level) = match (value["ply"].as_u64(), value["discs"].as_u64()) {
            (Some(ply), _) => ("ply", ply),
            (None, Some(discs)) => ("discs", discs),
            _ => return Err(bad("a row without its ply or discs")),
        };
        let positions = value["positions"]
            .as_u64()
            .ok_or_else(|| bad("a row without positions"))?;
        let canonical = value["canonical"].as_u64();
        let merged = levels.entry((label.to_string(), level)).or_default();
        match value["shard"].as_str() {
            None => match &merged.whole {
                Some((first, p, c)) if (*p, *c) != (positions, canonical) => {
                    return Err(bad(&format!(
                        "{label} {level}: {positions} positions here, {p} at {first}"
                    )))
                }
                Some(_) => {}
                None => merged.whole = Some((at.clone(), positions, canonical)),
            },
            Some(shard) => {
                if let Some((_, first)) = merged.shards.first() {
                    if first.is_some() != canonical.is_some() {
                        return Err(bad("canonical counted in some shards only"));
                    }
                }
                merged
                    .shards
                    .add(shard, (positions, canonical), &at)
                    .map_err(Failure::Input)?;
            }
        }
    }
    let mut rows = Vec::new();
    for ((label, level), merged) in levels {
        let (positions, canonical, shards) = if merged.shards.is_empty() {
            let (_, p, c) = merged.whole.expect("a row per level");
            (p, c, 1)
        } else {
            let count = merged.shards.len();
            let parts = merged
                .shards
                .complete()
                .map_err(|e| Failure::Input(format!("{label} {level}: {e}")))?;
            let positions = parts.iter().map(|(p, _)| p).sum();
            let canonical = parts.iter().map(|(_, c)| *c).sum::<Option<u64>>();
            if let Some((at, p, c)) = &merged.whole {
                if (*p, *c) != (positions, canonical) {
                    return Err(Failure::Input(format!(
                        "{label} {level}: the shards add up to {positions} positions, {at} counted {p}"
                    )));
                }
            }
            (positions, canonical, count)
        };
        rows.push((label, level, positions, canonical, shards));
    }
    if !json {
        writeln!(
            out,
            "{:>9} {:>16} {:>16} {:>7}",
            "level", "positions", "canonical", "shards"
        )?;
    }
    for (label, level, positions, canonical, shards) in rows {
        if json {
            let mut row = serde_json::json!({"command": "enumerate", "positions": positions,
                "shards": shards});
            row[label.as_str()] = level.into();
            if let Some(c) = canonical {
                row["canonical"] = c.into();
            }
            seal::write_sealed(out, &row)?;
        } else {
            let canonical = canonical.map_or("-".to_string(), |c| c.to_string());
            writeln!(
                out,
                "{label:>5} {level:>3} {positions:>16} {canonical:>16} {shards:>7}"
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::shard_summary;

    fn summary(shards: &[&str]) -> String {
        shard_summary(&shards.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_clusters_parts_and_reruns_read_as_ranges() {
        assert_eq!(
            summary(&["1/50", "2/50", "10/50", "3/50", "2/50", "12/50", "11/50"]),
            "7 runs: shards 1-3, 10-12 of 50, 1 of them again"
        );
        assert_eq!(summary(&["4/8"]), "1 run: shard 4 of 8");
        // Not one count: as the runs name them.
        assert_eq!(summary(&["1/2", "1/3"]), "2 runs: 1/2 1/3");
        assert_eq!(summary(&["all", "1/2"]), "2 runs: all 1/2");
        assert_eq!(summary(&[]), "no run's summary");
    }
}
