//! The plots `retro merge` draws of `retro check` rows (SVG): the cactus plot of each
//! method's times, the seconds by disc count, and the estimate's interval as the sample grew.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use serde_json::Value;

use crate::reach::unchecked_no;

/// The cactus plot of `rows`: one line per method (and one for all decided positions),
/// point `k` at the seconds of the `k`-th fastest position it decided.
pub fn cactus(
    path: &Path,
    rows: &BTreeMap<u64, serde_json::Value>,
    files: &[PathBuf],
) -> Result<(), Box<dyn Error>> {
    let mut times: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for row in rows.values().filter(|r| !r["reachable"].is_null()) {
        let seconds = row["seconds"].as_f64().unwrap_or(0.0).max(1e-5);
        let method = row["method"].as_str().unwrap_or("-").to_string();
        times.entry(method).or_default().push(seconds);
        times.entry("all decided".into()).or_default().push(seconds);
    }
    for series in times.values_mut() {
        series.sort_by(f64::total_cmp);
    }
    let most = times.values().map(Vec::len).max().unwrap_or(0).max(1) as u64;
    let slowest = times
        .values()
        .flat_map(|t| t.last())
        .fold(1.0f64, |a, &b| a.max(b));
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "retro check: {} positions ({})",
                rows.len(),
                names.join(" ")
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0..most, (1e-5f64..slowest * 2.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("positions decided")
        .y_desc("seconds per position")
        .draw()?;
    for (i, (method, series)) in times.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        // At most about 2,000 points a line (every k-th by rank, and the last): a file of
        // 10^5 positions would otherwise give megabytes of SVG for the same curve.
        let step = series.len().div_ceil(2000).max(1);
        let points = series
            .iter()
            .enumerate()
            .filter(|(k, _)| k % step == 0 || k + 1 == series.len())
            .map(|(k, &t)| (k as u64 + 1, t));
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(format!("{method} ({})", series.len()))
            .legend(line_mark(colour));
    }
    finish(&mut chart, SeriesLabelPosition::UpperLeft)?;
    root.present()?;
    Ok(())
}

/// Seconds per position by its number of discs (`discs[i]` for the position of row `i +
/// 1`): per disc count the median, the 90th percentile and the slowest of the positions
/// decided, and the share decided, which is what "within the limit at every disc count"
/// asks.
pub fn by_discs(
    path: &Path,
    rows: &BTreeMap<u64, Value>,
    discs: &[u32],
) -> Result<(), Box<dyn Error>> {
    // Per disc count: the seconds of the positions decided, and how many there were.
    let mut by: BTreeMap<u32, (Vec<f64>, usize)> = BTreeMap::new();
    for (&index, row) in rows {
        let Some(&count) = discs.get(index as usize - 1) else {
            return Err(
                format!("row {index}, but the positions file holds {}", discs.len()).into(),
            );
        };
        let entry = by.entry(count).or_default();
        entry.1 += 1;
        if !row["reachable"].is_null() {
            entry
                .0
                .push(row["seconds"].as_f64().unwrap_or(0.0).max(1e-4));
        }
    }
    for (times, _) in by.values_mut() {
        times.sort_by(f64::total_cmp);
    }
    let quantile = |times: &[f64], q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let (first, last) = match (by.keys().next(), by.keys().last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => return Err("no rows".into()),
    };
    let slowest = by
        .values()
        .flat_map(|(t, _)| t.last())
        .fold(1.0f64, |a, &b| a.max(b));
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "retro check: seconds by disc count, {} positions",
                rows.len()
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(
            first.saturating_sub(1)..last + 1,
            (1e-4f64..slowest * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("discs")
        .y_desc("seconds per position decided")
        .draw()?;
    let series: [(&str, f64); 3] = [("median", 0.5), ("90th percentile", 0.9), ("slowest", 1.0)];
    for (i, (name, q)) in series.into_iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let points: Vec<(u32, f64)> = by
            .iter()
            .filter(|(_, (t, _))| !t.is_empty())
            .map(|(&d, (t, _))| (d, quantile(t, q)))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(name)
            .legend(line_mark(colour));
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    // The share decided, written under each disc count's points.
    chart.draw_series(by.iter().map(|(&d, (t, n))| {
        Text::new(
            format!("{}/{n}", t.len()),
            (d, 1.5e-4),
            ("sans-serif", 12).into_font().color(&BLACK),
        )
    }))?;
    finish(&mut chart, SeriesLabelPosition::UpperLeft)?;
    root.present()?;
    Ok(())
}

/// The estimate of the number of legal positions after the first `n` boards of the
/// sample (rows in order), for 100 values of `n` up to the whole: the interval's two ends
/// (UNKNOWN and unchecked "no"s counted both ways), and the point estimate between them.
pub fn estimate_growth(
    path: &Path,
    rows: &BTreeMap<u64, Value>,
    confidence: f64,
) -> Result<(), Box<dyn Error>> {
    use retro::estimate::{estimate, random_board_space};
    let space = random_board_space();
    let total = rows.len();
    // After n boards: (n, [lower end, point estimate, upper end]).
    let mut points: Vec<(u64, [f64; 3])> = Vec::new();
    let (mut reachable, mut open) = (0u64, 0u64);
    for (k, row) in rows.values().enumerate() {
        match row["reachable"].as_bool() {
            Some(true) => reachable += 1,
            None => open += 1,
            Some(false) if unchecked_no(row) => open += 1,
            Some(false) => {}
        }
        let n = k + 1;
        if n * 100 / total != k * 100 / total || n == total {
            let e = estimate(n as u64, reachable, open, confidence, space).ok_or("confidence")?;
            let point = reachable as f64 / n as f64 * space;
            points.push((n as u64, [e.positions.0, point, e.positions.1]));
        }
    }
    let high = points.iter().map(|p| p.1[2]).fold(1.0f64, f64::max);
    let low = points
        .iter()
        .map(|p| p.1[0])
        .filter(|&v| v > 1.0)
        .fold(high, f64::min);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "legal positions: the {}% interval as the sample grew ({total} boards)",
                confidence * 100.0
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .margin_right(40)
        .x_label_area_size(40)
        .y_label_area_size(80)
        // Logarithms on a linear axis: plotters' log scale labels only the powers of ten,
        // and this range lies within one or two of them.
        .build_cartesian_2d(0..total as u64, (low / 1.5).log10()..(high * 1.5).log10())?;
    chart
        .configure_mesh()
        .x_desc("boards decided or tried, in sample order")
        .y_desc("legal positions")
        .y_labels(12)
        .y_label_formatter(&|v| format!("{:.1e}", 10f64.powf(*v)))
        .draw()?;
    let lines = [
        ("upper end", 2),
        ("reachable / sampled x space", 1),
        ("lower end", 0),
    ];
    for (i, (name, end)) in lines.into_iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                points
                    .iter()
                    .filter(|p| p.1[end] > 1.0)
                    .map(|p| (p.0, p.1[end].log10())),
                colour.stroke_width(2),
            ))?
            .label(name)
            .legend(line_mark(colour));
    }
    finish(&mut chart, SeriesLabelPosition::UpperRight)?;
    root.present()?;
    Ok(())
}

/// The legend's mark of a line drawn in `colour`.
fn line_mark(colour: RGBAColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
}

/// Draws the legend of `chart` in `corner`, on a white box with a black border.
fn finish<'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    corner: SeriesLabelPosition,
) -> Result<(), Box<dyn Error>> {
    chart
        .configure_series_labels()
        .position(corner)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
