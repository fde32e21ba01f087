//! The merge side of the seals (`crate::seal`): what a merge takes on trust, and the
//! checks of the parts it reads (rows whole, parts of one run, none missing), whose
//! refusals are the command's one-line errors.

pub use crate::seal::*;

use serde_json::Value;

use super::{Failure, JsonLine};

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
