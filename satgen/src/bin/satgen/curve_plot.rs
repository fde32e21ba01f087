//! `satgen curve-plot`: the rows of `satgen curve` runs put together, drawn as SVG.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, Failure};

use crate::curve::bounds;

#[derive(clap::Args)]
pub struct Args {
    /// JSON Lines of `satgen curve --json` (runs and shards; a ply answered twice must
    /// agree).
    #[arg(required = true)]
    rows: Vec<PathBuf>,
    /// The SVG file to write.
    #[arg(short, long)]
    output: PathBuf,
}

/// Per ply, what the rows say together: a settled point (rows that settle one ply must
/// agree), else the best bound on each side of the unsettled ones; with where it was read.
fn points(rows: Vec<cli::JsonLine>) -> Result<BTreeMap<u64, (String, serde_json::Value)>, Failure> {
    let mut points: BTreeMap<u64, (String, serde_json::Value)> = BTreeMap::new();
    for read in rows {
        let (at, row) = (read.at(), read.value);
        if row["summary"] == true {
            continue;
        }
        let ply = row["ply"]
            .as_u64()
            .ok_or_else(|| Failure::Input(format!("{at}: a row without its ply")))?;
        match points.get(&ply) {
            Some((first, earlier)) if !earlier["max"].is_null() && !row["max"].is_null() => {
                if earlier["max"] != row["max"] {
                    return Err(Failure::Invalid(format!(
                        "ply {ply}: {first} says {} and {at} says {}",
                        earlier["max"], row["max"]
                    )));
                }
            }
            // A settled point replaces an unsettled one.
            Some((_, earlier)) if !earlier["max"].is_null() => {}
            // Two unsettled ones: the better bound on each side (a beam's witness and a
            // climb's UNSAT, say).
            Some((first, earlier)) if row["max"].is_null() => {
                let lower = |r: &serde_json::Value| r["lower"].as_u64().unwrap_or(0);
                // The smallest UNSAT, with the row it was read from (a merged row keeps
                // it in `impossible_from`).
                let bound = [(&row, &at), (earlier, first)]
                    .into_iter()
                    .filter_map(|(r, at)| {
                        let from = r["impossible_from"].as_str().unwrap_or(at).to_string();
                        r["impossible"].as_u64().map(|u| (u, from))
                    })
                    .min();
                let (mut best, from) = if lower(&row) > lower(earlier) {
                    (row, at)
                } else {
                    (earlier.clone(), first.clone())
                };
                let impossible = bound.as_ref().map(|(u, _)| *u);
                best["impossible"] = impossible.into();
                if let Some((_, bound_from)) = bound {
                    best["impossible_from"] = bound_from.into();
                }
                // One side's witness meeting the other's UNSAT settles the point.
                if impossible == Some(lower(&best) + 1) {
                    best["max"] = best["lower"].clone();
                }
                points.insert(ply, (from, best));
            }
            _ => {
                points.insert(ply, (at, row));
            }
        }
    }
    Ok(points)
}

/// Draws the curve: the maximum at each ply (black's plies and white's as two series), and
/// the bounds where a point is not settled; prints where each ply stands (its maximum or
/// bounds, the witness, and the row that gave it).
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let points = points(cli::read_json_lines(&args.rows)?)?;
    draw(&args.output, &points)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.output.display())))?;
    writeln!(
        out,
        "  ply  side    max  bounds    witness  (from; the bound's row where another)"
    )?;
    for (ply, (at, row)) in &points {
        let from = match row["impossible_from"].as_str() {
            Some(bound_from) if bound_from != at => format!("{at}; bound {bound_from}"),
            _ => at.clone(),
        };
        let bounds = bounds(
            row["max"].as_u64(),
            row["lower"].as_u64().unwrap_or(0),
            row["impossible"].as_u64(),
        );
        writeln!(
            out,
            "{ply:>5}  {:<5} {:>5}  {bounds:<8}  {}  ({from})",
            row["side"].as_str().unwrap_or("?"),
            row["max"]
                .as_u64()
                .map_or("-".to_string(), |m| m.to_string()),
            row["witness"].as_str().unwrap_or(""),
        )?;
    }
    let settled = points.values().filter(|(_, r)| !r["max"].is_null()).count();
    writeln!(
        out,
        "{} plies ({settled} settled) drawn to {}",
        points.len(),
        args.output.display()
    )?;
    Ok(())
}

fn draw(
    path: &std::path::Path,
    points: &BTreeMap<u64, (String, serde_json::Value)>,
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let value = |row: &serde_json::Value, key: &str| row[key].as_u64().map(|v| v as i32);
    let top = points
        .values()
        .filter_map(|(_, r)| value(r, "impossible").or(value(r, "lower")))
        .max()
        .unwrap_or(1)
        + 2;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "The most legal moves after exactly P plies (a pass is a ply)",
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-1i32..61i32, 0i32..top)?;
    chart
        .configure_mesh()
        .x_desc("ply P (black to move at even P, white at odd)")
        .y_desc("legal moves")
        .draw()?;
    for (side, colour) in [("black", BLACK), ("white", RED)] {
        let settled: Vec<(i32, i32)> = points
            .iter()
            .filter(|(_, (_, r))| r["side"] == side)
            .filter_map(|(&p, (_, r))| value(r, "max").map(|m| (p as i32, m)))
            .collect();
        chart
            .draw_series(LineSeries::new(settled.clone(), colour.stroke_width(2)))?
            .label(format!("{side} to move: maximum"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(settled.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        // Unsettled: the witness's count up to one below the first count proven impossible
        // (or the top of the chart).
        let open = points
            .iter()
            .filter(|(_, (_, r))| r["side"] == side && r["max"].is_null())
            .map(|(&p, (_, r))| {
                let low = value(r, "lower").unwrap_or(0);
                let high = value(r, "impossible").map_or(top, |u| u - 1);
                PathElement::new(
                    vec![(p as i32, low), (p as i32, high)],
                    colour.stroke_width(1),
                )
            });
        chart.draw_series(open)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(lines: &[&str]) -> Vec<cli::JsonLine> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| cli::JsonLine {
                file: "rows".into(),
                line: i + 1,
                value: serde_json::from_str(l).unwrap(),
            })
            .collect()
    }

    /// Unsettled rows of one ply give the best bound of each (the beam's witness, the
    /// climb's UNSAT), which settle the point where they meet; a settled row stands over
    /// them; settled rows that disagree fail.
    #[test]
    fn points_take_the_best_bounds() {
        let beam = r#"{"ply":25,"max":null,"lower":29,"impossible":null,"witness":"beam"}"#;
        let climb = r#"{"ply":25,"max":null,"lower":28,"impossible":34,"witness":"climb"}"#;
        let settled = r#"{"ply":25,"max":30,"lower":30,"impossible":31,"witness":"sat"}"#;
        for order in [[beam, climb], [climb, beam]] {
            let points = points(rows(&order)).unwrap();
            let (_, row) = &points[&25];
            assert_eq!(
                (&row["lower"], &row["impossible"]),
                (&29.into(), &34.into())
            );
            assert_eq!(row["witness"], "beam");
            let climb_at = if order[0] == climb {
                "rows:1"
            } else {
                "rows:2"
            };
            assert_eq!(row["impossible_from"], climb_at);
        }
        let all = points(rows(&[beam, settled, climb])).unwrap();
        assert_eq!(all[&25].1["max"], 30);
        let tight = r#"{"ply":25,"max":null,"lower":27,"impossible":30,"witness":"climb"}"#;
        let met = points(rows(&[beam, tight])).unwrap();
        assert_eq!(
            (&met[&25].1["max"], &met[&25].1["witness"]),
            (&29.into(), &"beam".into())
        );
        let other = r#"{"ply":25,"max":31,"lower":31,"impossible":32,"witness":"x"}"#;
        assert!(points(rows(&[settled, other])).is_err());
    }
}
