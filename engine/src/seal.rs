//! What makes the files the tools write checkable when they are read back: a JSON object
//! sealed with the checksum of its own content, the digest of a run's rows that its
//! summary carries, and the run's identity (the input, the options that change answers,
//! the version), so that a resumed run or a merge refuses a damaged, incomplete or foreign
//! part instead of counting it. XXH3-64 throughout: it guards against disks and torn
//! writes, not against forgery (git's hashes guard what is committed).

use serde_json::{Map, Value};
use xxhash_rust::xxh3::xxh3_64;

use std::io::{self, Write};

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

/// Writes the file `path` whole or not at all: `write` fills a temporary file beside it,
/// renamed to `path` once written and flushed, so that a run that fails or is killed
/// midway leaves the old file or none, never a part (an empty CNF that a solver then
/// reads as a question). `io_error` turns the failures of the file itself into `E`.
pub fn write_whole<T, E>(
    path: &std::path::Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
    io_error: impl Fn(io::Error) -> E,
) -> Result<T, E> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let temp = tempfile::NamedTempFile::new_in(dir.unwrap_or(std::path::Path::new(".")))
        .map_err(&io_error)?;
    let mut writer = io::BufWriter::new(temp);
    let value = write(&mut writer)?;
    let temp = writer.into_inner().map_err(|e| io_error(e.into_error()))?;
    temp.as_file().sync_all().map_err(&io_error)?;
    temp.persist(path).map_err(|e| io_error(e.error))?;
    Ok(value)
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
