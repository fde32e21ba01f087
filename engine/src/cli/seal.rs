//! What makes the files the tools write checkable when they are read back: a JSON object
//! sealed with the checksum of its own content, the digest of a run's rows that its
//! summary carries, and the run's identity (the input, the options that change answers,
//! the version), so that a resumed run or a merge refuses a damaged, incomplete or foreign
//! part instead of counting it. XXH3-64 throughout: it guards against disks and torn
//! writes, not against forgery (git's hashes guard what is committed).

use serde_json::{Map, Value};
use xxhash_rust::xxh3::xxh3_64;

use super::{Failure, JsonLine};
use crate::Position;

/// The field of a sealed object that holds its checksum.
pub const CHECKSUM: &str = "checksum";

/// How a checksum is written: "xxh3:" and 16 hexadecimal digits.
pub fn format_checksum(sum: u64) -> String {
    format!("xxh3:{sum:016x}")
}

/// The checksum written by [`format_checksum`], or `None` for another text.
pub fn parse_checksum(text: &str) -> Option<u64> {
    let hex = text.strip_prefix("xxh3:")?;
    (hex.len() == 16)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The checksum of a JSON value: of its text with the keys of every object sorted (how
/// `serde_json` writes a [`Value`]), so that a value read back sums as it did when written.
pub fn value_checksum(value: &Value) -> u64 {
    xxh3_64(value.to_string().as_bytes())
}

/// Adds [`CHECKSUM`] to `object`: the checksum of the object without it.
pub fn seal(object: &mut Map<String, Value>) {
    object.remove(CHECKSUM);
    let sum = value_checksum(&Value::Object(object.clone()));
    object.insert(CHECKSUM.into(), format_checksum(sum).into());
}

/// What [`check_seal`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seal {
    /// The checksum is there and matches.
    Whole,
    /// No checksum: written before the tools sealed what they write.
    Absent,
    /// A checksum that does not match: the object was changed or damaged.
    Broken,
}

/// Whether `value` is an object whose [`CHECKSUM`] matches the rest of it.
pub fn check_seal(value: &Value) -> Seal {
    let Some(object) = value.as_object() else {
        return Seal::Absent;
    };
    let Some(written) = object.get(CHECKSUM) else {
        return Seal::Absent;
    };
    let mut rest = object.clone();
    rest.remove(CHECKSUM);
    match written.as_str().and_then(parse_checksum) {
        Some(sum) if sum == value_checksum(&Value::Object(rest)) => Seal::Whole,
        _ => Seal::Broken,
    }
}

/// The rows a run wrote, as its summary vouches for them: how many, and the sum of their
/// checksums (a sum: rows come in the order they finish, and a merge reorders them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowDigest {
    /// Rows.
    pub rows: u64,
    /// The wrapping sum of their [`value_checksum`]s.
    pub sum: u64,
}

impl RowDigest {
    /// Counts one row.
    pub fn add(&mut self, row: &Value) {
        self.rows += 1;
        self.sum = self.sum.wrapping_add(value_checksum(row));
    }

    /// Counts one row as it is written (any serialisable row).
    pub fn add_row(&mut self, row: &impl serde::Serialize) {
        self.add(&serde_json::to_value(row).expect("a row serialises"));
    }

    /// Writes the digest into a summary: "rows" and "rows_checksum".
    pub fn write_into(&self, summary: &mut Map<String, Value>) {
        summary.insert("rows".into(), self.rows.into());
        summary.insert("rows_checksum".into(), format_checksum(self.sum).into());
    }

    /// The digest a summary vouches for (`None` for a summary without one).
    pub fn read_from(summary: &Value) -> Option<RowDigest> {
        Some(RowDigest {
            rows: summary["rows"].as_u64()?,
            sum: parse_checksum(summary["rows_checksum"].as_str()?)?,
        })
    }
}

/// Which run wrote a part: parts of one run (its shards, its reruns) share it, and a merge
/// of parts that do not is refused unless asked for.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// The command: "engine solve", "dfpn wld", "retro check"...
    pub command: String,
    /// The checksum of the positions asked, in the file's order ([`input_checksum`]).
    pub input: String,
    /// Positions in the input.
    pub positions: usize,
    /// The options that change answers, as given ("--wld", "--empties 20"; empty: none).
    pub options: String,
    /// The tool's version.
    pub version: String,
}

impl Run {
    /// The run of `command` over `positions` (the whole input, every shard's), with the
    /// options that change its answers.
    pub fn new<'a>(
        command: &str,
        positions: impl IntoIterator<Item = &'a Position>,
        options: &str,
    ) -> Run {
        let mut count = 0;
        let input = input_checksum(positions.into_iter().inspect(|_| count += 1));
        Run {
            command: command.into(),
            input: format_checksum(input),
            positions: count,
            options: options.trim().into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// The run a summary names, if it names one.
    pub fn read_from(summary: &Value) -> Option<Run> {
        serde_json::from_value(summary.get("run")?.clone()).ok()
    }

    /// How two runs differ, in words ("input xxh3:... and xxh3:..."), or `None` where they
    /// are the same run.
    pub fn difference(&self, other: &Run) -> Option<String> {
        let fields = [
            ("command", &self.command, &other.command),
            ("input", &self.input, &other.input),
            ("options", &self.options, &other.options),
            ("version", &self.version, &other.version),
        ];
        let mut differ: Vec<String> = fields
            .iter()
            .filter(|(_, a, b)| a != b)
            .map(|(name, a, b)| format!("{name} {a:?} against {b:?}"))
            .collect();
        if self.positions != other.positions {
            differ.push(format!(
                "{} positions against {}",
                self.positions, other.positions
            ));
        }
        (!differ.is_empty()).then(|| differ.join(", "))
    }
}

/// The checksum of a sequence of positions (board and side to move): two files that ask
/// the same questions in the same order have the same, whatever their comments or format.
pub fn input_checksum<'a>(positions: impl IntoIterator<Item = &'a Position>) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for p in positions {
        hasher.update(&p.board.player.to_le_bytes());
        hasher.update(&p.board.opponent.to_le_bytes());
        hasher.update(&[p.side as u8]);
    }
    hasher.digest()
}

/// The command line of this process, as a file it writes records it.
pub fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// What a merge takes on trust (flattened into its arguments).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Trust {
    /// Also take rows that no seal vouches for: files written before the tools sealed
    /// their summaries and rows, and the rows of a run killed before its summary (SIGKILL,
    /// a lost machine; Ctrl-C and SIGTERM still write it), skipping a last line cut off.
    /// They are taken as they are (the output counts them); sealed parts are checked all
    /// the same.
    #[arg(long)]
    pub unsealed: bool,
    /// Merge parts of different runs (another input, other options that change answers,
    /// another command or version), which is otherwise refused.
    #[arg(long)]
    pub mixed_runs: bool,
}

/// The JSON Lines of the parts a merge was given: with `--unsealed` a last line cut off is
/// skipped (a killed run's), and no rows at all is an error naming the first file.
pub fn read_parts(files: &[std::path::PathBuf], trust: Trust) -> Result<Vec<JsonLine>, Failure> {
    let lines = if trust.unsealed {
        super::read_json_lines_resuming(files)?
    } else {
        super::read_json_lines(files)?
    };
    if lines.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no rows (an empty file?)",
            files[0].display()
        )));
    }
    Ok(lines)
}

/// Writes `row` as one JSON line sealed with its own checksum: for rows that stand alone (a
/// depth of `engine perft`, a level of `retro enumerate`, a ply of `retro maxmob --by-ply`),
/// which a merge adds up with no summary to vouch for them.
pub fn write_sealed(
    out: &mut impl std::io::Write,
    row: &impl serde::Serialize,
) -> Result<(), Failure> {
    let Value::Object(mut object) = serde_json::to_value(row).map_err(|e| Failure::Io(e.into()))?
    else {
        panic!("a row is a JSON object");
    };
    seal(&mut object);
    super::write_json(out, &object)
}

/// Whether a merge may count a row written by [`write_sealed`]: `Ok(false)` for a whole
/// one, `Ok(true)` for one without a seal taken on `--unsealed` (files written before rows
/// were sealed), an error naming where it was read for a changed or damaged row or, without
/// `--unsealed`, an unsealed one.
pub fn check_row(read: &JsonLine, trust: Trust) -> Result<bool, Failure> {
    match check_seal(&read.value) {
        Seal::Whole => Ok(false),
        Seal::Absent if trust.unsealed => Ok(true),
        Seal::Absent => Err(Failure::Input(format!(
            "{}: a row without a checksum (written before rows were sealed): give --unsealed to take such files as they are",
            read.at()
        ))),
        Seal::Broken => Err(Failure::Input(format!(
            "{}: a row changed or damaged since it was written (its checksum does not match)",
            read.at()
        ))),
    }
}

/// Checks every line of parts written by [`write_sealed`] ([`check_row`]) and says on
/// standard error how many were taken without a seal.
pub fn check_rows(lines: &[JsonLine], trust: Trust) -> Result<(), Failure> {
    let mut unsealed = 0;
    for read in lines {
        unsealed += check_row(read, trust)? as u64;
    }
    if unsealed > 0 {
        eprintln!("warning: {unsealed} rows taken without a seal (--unsealed)");
    }
    Ok(())
}

/// What [`check_parts`] found of the parts it was given.
#[derive(Debug, Default)]
pub struct Parts {
    /// The run of the first sealed summary, and where it was read.
    pub run: Option<(Run, String)>,
    /// Rows taken without a sealed summary vouching for them (`--unsealed`).
    pub unvouched: u64,
}

/// Checks the parts in `lines` (JSON Lines of runs of one of `commands`, each run's rows
/// followed by its summary, files in any order, concatenated or not) before a merge or a
/// resumed run counts them: each sealed summary whole, its rows as many and as they were
/// written, every part of the first part's run. A part that fails is a one-line error
/// naming where it was read; what `trust` allows is counted instead.
pub fn check_parts(lines: &[JsonLine], commands: &[&str], trust: Trust) -> Result<Parts, Failure> {
    let mut parts = Parts::default();
    // The rows read since the last summary of the file being read: where the first was,
    // and their digest.
    let mut pending: Option<(String, RowDigest)> = None;
    let mut file: Option<&str> = None;
    let unvouched = |pending: Option<(String, RowDigest)>, parts: &mut Parts| {
        match pending {
        Some((first, digest)) if !trust.unsealed => Err(Failure::Input(format!(
            "{first}: {} row{} without a summary after {} (a run killed or cut off): run that part again, or give --unsealed to take them as they are",
            digest.rows,
            if digest.rows == 1 { "" } else { "s" },
            if digest.rows == 1 { "it" } else { "them" },
        ))),
        Some((_, digest)) => {
            parts.unvouched += digest.rows;
            Ok(())
        }
        None => Ok(()),
    }
    };
    for read in lines {
        if file != Some(read.file.as_str()) {
            unvouched(pending.take(), &mut parts)?;
            file = Some(&read.file);
        }
        if read.value["summary"] != true {
            let (_, digest) = pending.get_or_insert_with(|| (read.at(), RowDigest::default()));
            digest.add(&read.value);
            continue;
        }
        let at = read.at();
        let rows = pending.take();
        let digest = rows.as_ref().map(|(_, d)| *d).unwrap_or_default();
        match check_seal(&read.value) {
            Seal::Broken => {
                return Err(Failure::Input(format!(
                    "{at}: a summary changed or damaged since it was written (its checksum does not match)"
                )))
            }
            Seal::Absent if trust.unsealed => {
                parts.unvouched += digest.rows;
                continue;
            }
            Seal::Absent => {
                return Err(Failure::Input(format!(
                    "{at}: a summary without a checksum (written before summaries were sealed): give --unsealed to take such files as they are"
                )))
            }
            Seal::Whole => {}
        }
        let damaged = || {
            Failure::Input(format!(
                "{at}: a sealed summary without its rows' digest or its run"
            ))
        };
        let vouched = RowDigest::read_from(&read.value).ok_or_else(damaged)?;
        let run = Run::read_from(&read.value).ok_or_else(damaged)?;
        if vouched.rows != digest.rows {
            return Err(Failure::Input(format!(
                "{at}: the summary vouches for {} rows, {} come before it in {} (a row deleted, added or cut off)",
                vouched.rows, digest.rows, read.file
            )));
        }
        if vouched.sum != digest.sum {
            return Err(Failure::Input(format!(
                "{at}: the rows before it are not those it vouches for (a row changed or damaged)"
            )));
        }
        if !commands.contains(&run.command.as_str()) {
            return Err(Failure::Input(format!(
                "{at}: a summary of `{}`, among rows of `{}`",
                run.command,
                commands.join("` or `")
            )));
        }
        match &parts.run {
            Some((first, first_at)) if !trust.mixed_runs => {
                if let Some(difference) = first.difference(&run) {
                    return Err(Failure::Input(format!(
                        "{at}: a part of another run than {first_at} ({difference}): give --mixed-runs to merge them anyway"
                    )));
                }
            }
            Some(_) => {}
            None => parts.run = Some((run, at)),
        }
    }
    unvouched(pending, &mut parts)?;
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_sealed_object_read_back_is_whole_and_any_change_breaks_it() {
        let mut object = json!({"summary": true, "positions": 20, "seconds": 0.1234})
            .as_object()
            .unwrap()
            .clone();
        seal(&mut object);
        let text = Value::Object(object).to_string();
        let read: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(check_seal(&read), Seal::Whole);
        for (from, to) in [("20", "21"), ("0.1234", "0.1235"), ("true", "false")] {
            let changed: Value = serde_json::from_str(&text.replace(from, to)).unwrap();
            assert_eq!(check_seal(&changed), Seal::Broken, "{from} -> {to}");
        }
        let mut unsealed = read.clone();
        unsealed.as_object_mut().unwrap().remove(CHECKSUM);
        assert_eq!(check_seal(&unsealed), Seal::Absent);
    }

    #[test]
    fn checksums_parse_as_written() {
        for sum in [0, 1, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(parse_checksum(&format_checksum(sum)), Some(sum));
        }
        assert_eq!(parse_checksum("xxh3:123"), None);
        assert_eq!(parse_checksum("md5:0123456789abcdef"), None);
    }

    #[test]
    fn a_row_digest_does_not_depend_on_the_order_of_rows() {
        let rows = [
            json!({"index": 1}),
            json!({"index": 2}),
            json!({"index": 3}),
        ];
        let (mut forward, mut backward) = (RowDigest::default(), RowDigest::default());
        rows.iter().for_each(|r| forward.add(r));
        rows.iter().rev().for_each(|r| backward.add(r));
        assert_eq!(forward, backward);
        let mut fewer = RowDigest::default();
        rows[..2].iter().for_each(|r| fewer.add(r));
        assert_ne!(fewer, forward);
        let mut summary = Map::new();
        forward.write_into(&mut summary);
        assert_eq!(RowDigest::read_from(&Value::Object(summary)), Some(forward));
    }

    #[test]
    fn runs_of_other_inputs_or_options_differ() {
        let positions = [Position::START];
        let run = Run::new("engine solve", &positions, "");
        assert_eq!(run.positions, 1);
        assert_eq!(run.difference(&run.clone()), None);
        let wld = Run::new("engine solve", &positions, "--wld");
        assert!(run.difference(&wld).unwrap().contains("options"));
        let other = Position {
            board: crate::Board::START.pass(),
            side: crate::Color::White,
        };
        let moved = Run::new("engine solve", &[other], "");
        assert!(run.difference(&moved).unwrap().contains("input"));
        let read = Run::read_from(&json!({"run": serde_json::to_value(&run).unwrap()}));
        assert_eq!(read, Some(run));
    }
}
