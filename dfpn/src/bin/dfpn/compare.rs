//! `dfpn compare`: two runs over the same positions side by side (`dfpn wld` against
//! `engine solve --wld`, or any two of `engine solve`, `dfpn score/wld`): per position each
//! run's answer, seconds and nodes and their ratios, the answers held equal; optionally
//! drawn (SVG). A position that either run left unknown (`--time-limit`) is listed, but
//! its figures are kept out of the totals: a limit's seconds are not a position's cost.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use engine::cli::{self, seal, Failure};
use serde_json::Value;

#[derive(clap::Args)]
#[command(after_long_help = "--json: a row per position, then a summary.")]
pub struct Args {
    /// JSON Lines of the first run (`--json` output with its summary; its shards may be
    /// given together, as to `engine merge`): the ratios are this run's over the second's.
    #[arg(long, required = true, num_args = 1..)]
    first: Vec<PathBuf>,
    /// JSON Lines of the second run, over the same positions.
    #[arg(long, required = true, num_args = 1..)]
    second: Vec<PathBuf>,
    /// Draw each position's seconds by both runs, and the ratio (SVG).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    output: cli::OutputArgs,
    #[command(flatten)]
    trust: seal::Trust,
}

/// The commands whose rows compare.
const COMMANDS: [&str; 4] = ["engine solve", "dfpn score", "dfpn wld", "dfpn prove"];

/// One run as read: its command, its input's checksum, and its rows by position.
struct Side {
    name: String,
    input: Option<String>,
    rows: BTreeMap<u64, Value>,
}

fn read_side(files: &[PathBuf], trust: seal::Trust) -> Result<Side, Failure> {
    let lines = seal::read_parts(files, trust)?;
    let parts = seal::check_parts(&lines, &COMMANDS, trust)?;
    let (name, input) = match parts.run {
        Some((run, _)) => (run.command, Some(run.input)),
        None => (files[0].display().to_string(), None),
    };
    let (rows, _) = cli::rows_by_index(lines)?;
    let rows = rows
        .into_iter()
        .map(|(index, (_, row))| (index, row))
        .collect();
    Ok(Side { name, input, rows })
}

/// One position as both runs answered it.
struct Pair {
    index: u64,
    empties: u64,
    answers: (String, String),
    seconds: (f64, f64),
    nodes: (f64, f64),
    /// Whether a run left it unknown at its time limit.
    unknown: bool,
}

impl Pair {
    fn agree(&self) -> bool {
        self.unknown || self.answers.0 == self.answers.1
    }
}

/// `x / y`, or NaN where `y` is not positive.
fn ratio(x: f64, y: f64) -> f64 {
    if y > 0.0 {
        x / y
    } else {
        f64::NAN
    }
}

/// The positions of both runs paired, or why they do not pair: runs over other inputs, or
/// positions only one answered.
fn pair(first: &Side, second: &Side) -> Result<Vec<Pair>, Failure> {
    if let (Some(a), Some(b)) = (&first.input, &second.input) {
        if a != b {
            return Err(Failure::Input(format!(
                "the two runs asked other positions (input {a} against {b})"
            )));
        }
    }
    let missing: Vec<String> = first
        .rows
        .keys()
        .chain(second.rows.keys())
        .filter(|i| !first.rows.contains_key(i) || !second.rows.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Failure::Input(format!(
            "positions answered by one run only: {}",
            missing.join(", ")
        )));
    }
    let number = |row: &Value, key: &str| row[key].as_f64().unwrap_or(0.0);
    Ok(first
        .rows
        .iter()
        .map(|(&index, a)| {
            let b = &second.rows[&index];
            Pair {
                index,
                empties: a["empties"].as_u64().unwrap_or(0),
                answers: (cli::row_answer(a), cli::row_answer(b)),
                seconds: (number(a, "seconds"), number(b, "seconds")),
                nodes: (number(a, "nodes"), number(b, "nodes")),
                unknown: a["unknown"] == true || b["unknown"] == true,
            }
        })
        .collect())
}

/// A position's line of the table, or its JSON object.
fn write_pair(out: &mut impl Write, p: &Pair, json: bool) -> Result<(), Failure> {
    if json {
        return cli::write_json(
            out,
            &serde_json::json!({"index": p.index, "empties": p.empties,
                "first": {"answer": p.answers.0, "seconds": p.seconds.0, "nodes": p.nodes.0},
                "second": {"answer": p.answers.1, "seconds": p.seconds.1, "nodes": p.nodes.1},
                "time_ratio": ratio(p.seconds.0, p.seconds.1),
                "nodes_ratio": ratio(p.nodes.0, p.nodes.1), "agree": p.agree(),
                "unknown": p.unknown}),
        );
    }
    writeln!(
        out,
        "{:>4} {:>7} {:>6} {:>9.3} {:>14} {:>9.3} {:>14} {:>7.3} {:>7.3}{}",
        p.index,
        p.empties,
        p.answers.0,
        p.seconds.0,
        p.nodes.0,
        p.seconds.1,
        p.nodes.1,
        ratio(p.seconds.0, p.seconds.1),
        ratio(p.nodes.0, p.nodes.1),
        match (p.unknown, p.agree()) {
            (true, _) => "  unknown: over a time limit".to_string(),
            (false, true) => String::new(),
            (false, false) => format!("  DIFFERENT: {}", p.answers.1),
        }
    )?;
    Ok(())
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let first = read_side(&args.first, args.trust)?;
    let second = read_side(&args.second, args.trust)?;
    let pairs = pair(&first, &second)?;
    let json = args.output.json;
    if !json {
        writeln!(
            out,
            "{:>4} {:>7} {:>6} {:>9} {:>14} {:>9} {:>14} {:>7} {:>7}",
            "#", "empties", "answer", "seconds", "nodes", "seconds", "nodes", "time x", "nodes x"
        )?;
    }
    for p in &pairs {
        write_pair(out, p, json)?;
    }
    let total = |f: fn(&Pair) -> f64| pairs.iter().filter(|p| !p.unknown).map(f).sum::<f64>();
    let known = pairs.iter().filter(|p| !p.unknown).count();
    let unknown: Vec<u64> = pairs
        .iter()
        .filter(|p| p.unknown)
        .map(|p| p.index)
        .collect();
    let (s1, n1) = (total(|p| p.seconds.0), total(|p| p.nodes.0));
    let (s2, n2) = (total(|p| p.seconds.1), total(|p| p.nodes.1));
    let disagree: Vec<u64> = pairs
        .iter()
        .filter(|p| !p.agree())
        .map(|p| p.index)
        .collect();
    if json {
        cli::write_json(
            out,
            &serde_json::json!({"summary": true, "first": first.name, "second": second.name,
                "positions": known, "unknown": unknown, "first_seconds": s1, "first_nodes": n1,
                "second_seconds": s2, "second_nodes": n2, "time_ratio": s1 / s2,
                "nodes_ratio": n1 / n2, "disagreements": disagree}),
        )?;
    } else {
        writeln!(
            out,
            "total: {known} positions; {}: {s1:.3} s, {n1:.0} nodes; {}: {s2:.3} s, {n2:.0} nodes; time {:.3}x, nodes {:.3}x; {} disagreements{}",
            first.name,
            second.name,
            s1 / s2,
            n1 / n2,
            disagree.len(),
            match unknown.len() {
                0 => String::new(),
                n => format!("; {n} left out, unknown to a run"),
            }
        )?;
    }
    if let Some(path) = &args.plot {
        let points: Vec<(u64, f64, f64)> = pairs
            .iter()
            .filter(|p| !p.unknown)
            .map(|p| (p.index, p.seconds.0, p.seconds.1))
            .collect();
        draw(path, &points, (&first.name, &second.name))
            .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    }
    if !disagree.is_empty() {
        return Err(Failure::Mismatch(disagree.len()));
    }
    Ok(())
}

/// Each position's seconds by both runs (log scale), and the ratio on a second axis.
fn draw(
    path: &Path,
    points: &[(u64, f64, f64)],
    names: (&str, &str),
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let (first, last) = match (points.first(), points.last()) {
        (Some(a), Some(b)) => (a.0, b.0),
        _ => return Err("no positions".into()),
    };
    let slowest = points.iter().fold(1e-3f64, |m, p| m.max(p.1).max(p.2));
    let ratios: Vec<(u64, f64)> = points
        .iter()
        .filter(|p| p.1 > 0.0 && p.2 > 0.0)
        .map(|p| (p.0, p.1 / p.2))
        .collect();
    let ratio_top = ratios.iter().fold(2.0f64, |m, r| m.max(r.1 * 1.1));
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{} against {}, per position", names.0, names.1),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .right_y_label_area_size(60)
        .build_cartesian_2d(
            first.saturating_sub(1)..last + 1,
            (1e-3f64..slowest * 2.0).log_scale(),
        )?
        .set_secondary_coord(first.saturating_sub(1)..last + 1, 0.0..ratio_top);
    chart
        .configure_mesh()
        .x_desc("position (row of the file)")
        .y_desc("seconds")
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("time ratio, first / second")
        .draw()?;
    for (i, (name, second)) in [(names.0, false), (names.1, true)].into_iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let series: Vec<(u64, f64)> = points
            .iter()
            .map(|p| (p.0, if second { p.2 } else { p.1 }.max(1e-3)))
            .collect();
        chart
            .draw_series(series.iter().map(|&p| Circle::new(p, 4, colour.filled())))?
            .label(name.to_string())
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
    }
    let grey = RGBColor(120, 120, 120);
    chart
        .draw_secondary_series(LineSeries::new(ratios, grey.stroke_width(1)))?
        .label("time ratio (right axis)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(1)));
    chart.draw_secondary_series(LineSeries::new(
        [(first.saturating_sub(1), 1.0), (last + 1, 1.0)],
        grey.mix(0.5),
    ))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
