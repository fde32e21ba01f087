//! `dfpn bench`: against alpha-beta.

use crate::common::*;

#[test]
fn bench_compares_with_alpha_beta() {
    let output = dfpn(&[
        "bench",
        "--board",
        FFO1,
        "--thresholds",
        "16,18,20",
        "--leaf-empties",
        "6",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = json_lines(&output);
    let proven: Vec<bool> = rows[..3]
        .iter()
        .map(|r| r["proven"].as_bool().unwrap())
        .collect();
    assert_eq!(proven, [true, true, false]);
    assert_eq!(rows[3]["disagreements"], 0);
}
