//! `dfpn prove`: both answers, in JSON.

use crate::common::*;

#[test]
fn prove_answers_both_ways_in_json() {
    for (t, proven) in [("18", true), ("19", false), ("-64", true)] {
        let output = dfpn(&[
            "prove",
            "--board",
            FFO1,
            "--threshold",
            t,
            "--json",
            "--leaf-empties",
            "8",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = json_lines(&output);
        assert_eq!(rows[0]["proven"], proven, "threshold {t}");
        assert_eq!(rows[0]["threshold"], t.parse::<i64>().unwrap());
        for key in ["nodes", "seconds", "table_peak_bytes"] {
            assert!(rows[0].get(key).is_some(), "{key}");
        }
        // The summary line last, as in every batch command.
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (&rows[1]["summary"], &rows[1]["positions"]),
            (&true.into(), &1.into())
        );
    }
}
