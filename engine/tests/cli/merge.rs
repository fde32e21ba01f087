//! `engine merge`: shards put back together.

use crate::common::*;

/// `merge`: the shards of `solve --json` put back together give the whole run's answers
/// in file order; a missing, repeated or interrupted shard is an error (exit 2); a row
/// that does not agree with the file's answers is a mismatch (exit 1).
#[test]
fn merge_puts_shards_back_together() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let text = std::fs::read_to_string(problems("fforum-1-19.obf")).unwrap();
    std::fs::write(
        path("five.obf"),
        text.lines().take(5).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let output = engine(&["solve", &path("five.obf"), "--shard", &shard, "--json"]);
        assert!(output.status.success(), "{output:?}");
        std::fs::write(path(&format!("part{i}.jsonl")), &output.stdout).unwrap();
    }
    let whole = stdout(&engine(&["solve", &path("five.obf"), "--json"]));
    let merged = engine(&[
        "merge",
        &path("part3.jsonl"),
        &path("part1.jsonl"),
        &path("part2.jsonl"),
        "--json",
    ]);
    assert!(merged.status.success(), "{merged:?}");
    let answers = |text: &str| -> Vec<(u64, i64)> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["summary"] != true)
            .map(|v| (v["index"].as_u64().unwrap(), v["score"].as_i64().unwrap()))
            .collect()
    };
    assert_eq!(answers(&stdout(&merged)), answers(&whole));
    let summary: serde_json::Value =
        serde_json::from_str(stdout(&merged).lines().last().unwrap()).unwrap();
    assert_eq!(
        (&summary["positions"], &summary["mismatches"]),
        (&5.into(), &0.into())
    );

    let fails = |files: &[&str], message: &str, code: i32| {
        let mut args = vec!["merge"];
        args.extend_from_slice(files);
        let output = engine(&args);
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(code), "{files:?}: {err}");
        assert!(err.contains(message), "{files:?}: {err}");
    };
    let (p1, p2, p3) = (
        path("part1.jsonl"),
        path("part2.jsonl"),
        path("part3.jsonl"),
    );
    fails(&[&p1, &p2], "shard 3/3 is missing", 2);
    fails(&[&p1, &p2, &p3, &p3], "and again in", 2);
    let third = std::fs::read_to_string(&p3).unwrap();
    let write = |name: &str, text: &str| {
        std::fs::write(path(name), text).unwrap();
        path(name)
    };
    // Damage after the run: a summary or a row changed, a row deleted, the summary cut
    // off; each refused, naming where.
    let edited = write(
        "edited.jsonl",
        &third.replace("\"interrupted\":false", "\"interrupted\":true"),
    );
    fails(&[&p1, &p2, &edited], "edited.jsonl:2: a summary changed", 2);
    let changed = third.replacen("\"expected_ok\":true", "\"expected_ok\":false", 1);
    let changed = write("changed.jsonl", &changed);
    fails(&[&p1, &p2, &changed], "not those it vouches for", 2);
    let lines: Vec<&str> = third.lines().collect();
    let deleted = write("deleted.jsonl", &lines[1..].join("\n"));
    fails(
        &[&p1, &p2, &deleted],
        "vouches for 1 rows, 0 come before it",
        2,
    );
    let cut = write("cut.jsonl", lines[0]);
    fails(&[&p1, &p2, &cut], "cut.jsonl:1: 1 row without a summary", 2);
    // Taken as they are when asked, and then the missing shard is what is missing.
    let mut args = vec!["merge", "--unsealed"];
    args.extend([p1.as_str(), p2.as_str(), cut.as_str()]);
    let output = engine(&args);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("shard 3/3 is missing"),
        "{output:?}"
    );
    // What a run really interrupted, or really at odds with the file's answers, writes
    // (sealed again as the run would have sealed it).
    let interrupted = write(
        "interrupted.jsonl",
        &reseal(&third.replace("\"interrupted\":false", "\"interrupted\":true")),
    );
    fails(&[&p1, &p2, &interrupted], "interrupted", 2);
    let wrong = third.replacen("\"expected_ok\":true", "\"expected_ok\":false", 1);
    let wrong = write("wrong.jsonl", &reseal(&wrong));
    fails(&[&p1, &p2, &wrong], "", 1);
    // Shard 3/3 of another file of five positions, and of a run with --wld.
    std::fs::write(
        path("other.obf"),
        text.lines().skip(5).take(5).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let other = engine(&["solve", &path("other.obf"), "--shard", "3/3", "--json"]);
    let other = write("other.jsonl", &stdout(&other));
    fails(&[&p1, &p2, &other], "a part of another run than", 2);
    let mut args = vec!["merge", "--mixed-runs"];
    args.extend([p1.as_str(), p2.as_str(), other.as_str()]);
    assert!(engine(&args).status.success());
    let wld = engine(&[
        "solve",
        &path("five.obf"),
        "--shard",
        "3/3",
        "--json",
        "--wld",
    ]);
    let wld = write("wld.jsonl", &stdout(&wld));
    fails(&[&p1, &p2, &wld], "options \"\" against \"--wld\"", 2);
    // Rows of another tool, and an empty file.
    let retro_rows = write(
        "retro.jsonl",
        "{\"index\":1,\"reachable\":true,\"method\":\"sat\"}\n",
    );
    fails(
        &[&retro_rows],
        "retro.jsonl:1: not a row of `engine solve`",
        2,
    );
    let empty = write("empty.jsonl", "");
    fails(&[&empty], "empty.jsonl: no rows", 2);
}

/// The JSON Lines `text` of a run with its summary sealed again over its rows as they now
/// are: what the run would have written had it given these answers.
fn reseal(text: &str) -> String {
    use engine::seal;
    let mut digest = seal::RowDigest::default();
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["summary"] == true {
            let object = value.as_object_mut().unwrap();
            digest.write_into(object);
            seal::seal(object);
        } else {
            digest.add(&value);
        }
        lines.push(value.to_string());
    }
    lines.join("\n")
}
