//! Command-line plumbing shared by the project's binaries (`engine`, `dfpn`, ...): one way
//! to parse arguments, read position files, check answers and show progress; beside it,
//! one file per concern: how a command ends (`failure.rs`), shards and their merge
//! (`shard.rs`), threads and memory (`budget.rs`), Ctrl-C and SIGTERM (`signal.rs`), the
//! checks a merge makes of the sealed parts it reads (`seal.rs`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
#[cfg(feature = "search")]
use std::sync::Arc;

#[cfg(feature = "search")]
use crate::eval::{Evaluation, HandEval, PatternEval};
use crate::obf::Obf;
use crate::position::Move;
use crate::{input, ParseError, ParseErrorKind};

mod budget;
mod failure;
pub mod seal;
mod shard;
mod signal;

pub use budget::{parse_memory_mb, thread_count, thread_pool, HashArgs, SearchArgs, ThreadArgs};
pub use failure::{exit_code, Failure};
pub use shard::{parse_shard, Split};
pub use signal::interrupt_flag;

/// Parses the command line; a usage error prints clap's whole message (what is wrong, the
/// usage, a suggestion for a mistyped name; the help where nothing was given) on stderr
/// and exits with status 2. Errors found after parsing stay one line ([`exit_code`]).
pub fn parse_args<C: clap::Parser>() -> Result<C, ExitCode> {
    let parsed = with_help_when_bare(C::command())
        .try_get_matches()
        .and_then(|matches| C::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(e) => {
            // --help and --version go to stdout with success; the rest to stderr.
            let _ = e.print();
            Err(if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

/// `command` with every subcommand that cannot run without arguments (one is required,
/// or one of a group) printing its whole help when given none, rather than an error that
/// names one required option and hides its alternatives (`--plies` or `--discs`).
pub fn with_help_when_bare(command: clap::Command) -> clap::Command {
    command.mut_subcommands(|sub| {
        // Asked of clap itself, which knows every way an argument is required
        // (`required_unless_present`, groups).
        let needs_arguments = sub
            .clone()
            .try_get_matches_from([sub.get_name()])
            .is_err_and(|e| e.kind() == clap::error::ErrorKind::MissingRequiredArgument);
        let sub = with_help_when_bare(sub);
        if needs_arguments {
            sub.arg_required_else_help(true)
        } else {
            sub
        }
    })
}

/// `completions SHELL`: the tool's shell completions, written to standard output.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell (for the files' places, see scripts/install-shell-files.sh).
    shell: clap_complete::Shell,
}

/// `manual DIR`: the tool's man pages, one per command.
#[derive(clap::Args)]
pub struct ManualArgs {
    /// Directory to write TOOL.1 and TOOL-COMMAND.1 into (created if missing).
    dir: PathBuf,
}

/// Writes the completions of tool `C` (named as its binary) for the shell asked.
pub fn completions<C: clap::CommandFactory>(
    args: &CompletionsArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut command = C::command();
    let name = command.get_name().to_string();
    clap_complete::generate(args.shell, &mut command, name, out);
    Ok(())
}

/// Writes the man pages of tool `C` and of each of its commands into the directory asked.
pub fn manual<C: clap::CommandFactory>(
    args: &ManualArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let failed = |e: io::Error| Failure::Input(format!("{}: {e}", args.dir.display()));
    std::fs::create_dir_all(&args.dir).map_err(failed)?;
    clap_mangen::generate_to(C::command(), &args.dir).map_err(failed)?;
    writeln!(out, "man pages written to {}", args.dir.display())?;
    Ok(())
}

/// The commands a `--help` text lists (clap's "Commands:" section, but `help`): what the
/// tests hold the completions and manual pages to, so that a new command cannot go
/// unchecked.
pub fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| line.trim() != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(String::from)
        .collect()
}

/// Writes `value` as one line of JSON.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Failure> {
    let line = serde_json::to_string(value).map_err(|e| Failure::Io(e.into()))?;
    writeln!(out, "{line}")?;
    Ok(())
}

/// The path of a file given on the command line, with standard input (`-`) copied to a
/// temporary file first for the commands that read a file more than once or need its
/// size (a CNF and its proof); the temporary file lives as long as the second value.
pub fn input_file(
    path: &std::path::Path,
) -> Result<(std::path::PathBuf, Option<tempfile::TempPath>), Failure> {
    if path != std::path::Path::new("-") {
        return Ok((path.to_path_buf(), None));
    }
    let failed = |e: io::Error| Failure::Input(format!("standard input: {e}"));
    let mut temp = tempfile::NamedTempFile::new().map_err(failed)?;
    io::copy(&mut io::stdin().lock(), &mut temp).map_err(failed)?;
    let temp = temp.into_temp_path();
    Ok((temp.to_path_buf(), Some(temp)))
}

/// Writes the file `path` whole or not at all: `write` fills a temporary file beside it,
/// renamed to `path` once written and flushed, so that a run that fails or is killed
/// midway leaves the old file or none, never a part (an empty CNF that a solver then
/// reads as a question). An error names the path.
pub fn write_file<T>(
    path: &std::path::Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, Failure>,
) -> Result<T, Failure> {
    crate::seal::write_whole(path, write, |e| {
        Failure::Input(format!("{}: cannot write: {e}", path.display()))
    })
}

/// A time limit given in seconds by the option `name`: a duration, or a usage error for a
/// negative or non-finite number.
pub fn seconds(value: f64, name: &str) -> Result<std::time::Duration, Failure> {
    std::time::Duration::try_from_secs_f64(value)
        .map_err(|_| Failure::Input(format!("{name} {value}: not a number of seconds")))
}

/// One object of a JSON Lines file, with where it was read.
pub struct JsonLine {
    /// The file it was read from.
    pub file: String,
    /// From 1.
    pub line: usize,
    /// The object.
    pub value: serde_json::Value,
}

impl JsonLine {
    /// "FILE:LINE", for messages.
    pub fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The rows of batch runs (`engine solve`, `dfpn score/wld/prove`) by position, each with
/// where it was read.
pub type RowsByIndex = std::collections::BTreeMap<u64, (String, serde_json::Value)>;

/// `lines` of batch runs split into their rows by position (a position read twice is an
/// error naming both places) and their summaries, each with where it was read.
pub fn rows_by_index(
    lines: Vec<JsonLine>,
) -> Result<(RowsByIndex, Vec<(String, serde_json::Value)>), Failure> {
    let mut rows = RowsByIndex::new();
    let mut summaries = Vec::new();
    for line in lines {
        let (at, value) = (line.at(), line.value);
        if value["summary"] == true {
            summaries.push((at, value));
            continue;
        }
        let index = value["index"]
            .as_u64()
            .ok_or_else(|| Failure::Input(format!("{at}: a row without its index")))?;
        if let Some((first, _)) = rows.get(&index) {
            return Err(Failure::Input(format!(
                "position {index} is in {first} and again in {at}"
            )));
        }
        rows.insert(index, (at, value));
    }
    Ok((rows, summaries))
}

/// A batch row's answer as the tables print it: its win/draw/loss, its score, or `?` (none:
/// left unknown at the time limit).
pub fn row_answer(row: &serde_json::Value) -> String {
    match (row["wld"].as_str(), row["score"].as_i64()) {
        (Some(wld), _) => wld.to_string(),
        (None, Some(score)) => format!("{score:+}"),
        (None, None) => "?".into(),
    }
}

/// Every JSON object of the JSON Lines `files` (blank lines skipped), for the commands
/// that put runs back together.
pub fn read_json_lines(files: &[std::path::PathBuf]) -> Result<Vec<JsonLine>, Failure> {
    read_json_lines_with(files, false)
}

/// [`read_json_lines`] for a run that resumes from them (`--done`): the last line of a
/// file, where it is not JSON, is what a job killed while writing it left, and is skipped
/// with a warning on stderr (its position is asked again); any other such line is an error.
pub fn read_json_lines_resuming(files: &[std::path::PathBuf]) -> Result<Vec<JsonLine>, Failure> {
    read_json_lines_with(files, true)
}

fn read_json_lines_with(
    files: &[std::path::PathBuf],
    torn_tail: bool,
) -> Result<Vec<JsonLine>, Failure> {
    let mut rows = Vec::new();
    for path in files {
        let file = path.display().to_string();
        // Each line's object or its error, so that only the last one's can be forgiven.
        let json = |source: &str, line, text: &str| {
            if text.trim().is_empty() {
                return Ok(None);
            }
            Ok(Some(serde_json::from_str(text).map_err(|e| {
                ParseError::new(
                    source,
                    line,
                    0,
                    ParseErrorKind::Io(format!("not JSON ({e})")),
                )
            })))
        };
        let mut lines = crate::obf::parse_lines(&file, crate::obf::open(path)?, json)?;
        if let Some((line, Err(e))) = lines.last() {
            if torn_tail {
                eprintln!("warning: {file}:{line}: skipped, cut off (a run killed while writing it?): {e}");
                lines.pop();
            }
        }
        for (line, value) in lines {
            rows.push(JsonLine {
                file: file.clone(),
                line,
                value: value?,
            });
        }
    }
    Ok(rows)
}

/// Which position of each game a file of games (WTHOR, GGF) gives.
#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// For a file of games: each game's position with this many empty squares. Default
    /// for WTHOR: the depth of its theoretical scores (which the solvers then check as OBF
    /// answers, as Edax's -wtest does).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub empties: Option<u32>,
}

/// Where the positions of a batch command come from, and which of them this run takes.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// OBF file of positions (of answers like "; G8:+18; H1:+12;" the best score is
    /// checked, and that the move found is one given with it; the scores of the other
    /// moves are not; each answer's move must be legal there), or a file of games
    /// (WTHOR .wtb, GGF .ggf: see --empties); `-` reads OBF from standard input.
    #[arg(required_unless_present = "board", conflicts_with = "board")]
    pub file: Option<PathBuf>,
    /// Which position of each game a file of games gives.
    #[command(flatten)]
    pub games: GameArgs,
    /// One position: an OBF line or a move list.
    #[arg(long, allow_hyphen_values = true)]
    pub board: Option<String>,
    /// `--shard`: positions I, I+N, I+2N... of the file.
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `--json`, declared once for every command of every tool that writes JSON.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct OutputArgs {
    /// Write JSON Lines (one object per line, as `jq` reads them) instead of the table;
    /// what each line holds is said after the options.
    #[arg(long)]
    pub json: bool,
}

/// `--time-limit`, declared once for the commands that answer positions one after another
/// (`engine solve`, `dfpn score` and `dfpn wld`): a position over it is left unknown and the
/// run goes on, so that one hard position does not hold up a file.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct TimeLimitArgs {
    /// Seconds (wall) per position before it is left unknown, the run going on with the
    /// next; its row says `unknown` (default: none).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
}

impl TimeLimitArgs {
    /// When a position started now must be answered.
    pub fn deadline(&self) -> Option<std::time::Instant> {
        self.time_limit
            .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s))
    }
}

/// A positive, finite number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
        .ok_or_else(|| format!("{text:?}: a positive number of seconds"))
}

/// `--shard I/N`, declared once for every batch command of every tool: part I of N of the
/// command's work, so that GNU parallel or a Slurm array shares a run over a cluster and
/// the tool's `merge` puts the parts back together.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ShardArgs {
    /// Do only part I of N (1-based) of the work, for clusters: items I, I+N, I+2N... of
    /// the command's list (the command's description says what the items are); the
    /// tool's `merge` puts the parts back together (default: all of it).
    #[arg(long = "shard", id = "shard", value_name = "I/N", value_parser = parse_shard)]
    pub part: Option<(usize, usize)>,
}

impl PositionArgs {
    /// The positions to work on, and the totals to count them in, which name the shard,
    /// the file's size and the run (`command` over this input with the `options` that
    /// change its answers: what `engine merge` checks).
    pub fn read_batch(
        &self,
        command: &str,
        options: &str,
    ) -> Result<(Vec<(usize, Obf)>, Totals), Failure> {
        let all = self.read_unsharded()?;
        let options = match self.games.empties {
            Some(empties) => format!("{options} --empties {empties}"),
            None => options.to_string(),
        };
        let totals = Totals {
            shard: self.shard.part.map(|(i, n)| format!("{i}/{n}")),
            file_positions: all.len(),
            run: Some(seal::Run::new(
                command,
                all.iter().map(|(_, obf)| &obf.position),
                &options,
            )),
            ..Totals::new()
        };
        Ok((self.sharded(all), totals))
    }

    /// The positions to work on, numbered from 1 in the file.
    pub fn read(&self) -> Result<Vec<(usize, Obf)>, Failure> {
        Ok(self.sharded(self.read_unsharded()?))
    }

    /// The positions of this shard (all without `--shard`).
    fn sharded(&self, positions: Vec<(usize, Obf)>) -> Vec<(usize, Obf)> {
        match self.shard.part {
            Some((i, n)) => positions
                .into_iter()
                .filter(|(index, _)| (index - 1) % n == i - 1)
                .collect(),
            None => positions,
        }
    }

    fn read_unsharded(&self) -> Result<Vec<(usize, Obf)>, Failure> {
        let positions: Vec<(usize, Obf)> = match (&self.file, &self.board) {
            (Some(path), _) if !path.exists() && input::looks_like_obf(&path.to_string_lossy()) => {
                return Err(Failure::Input(format!(
                    "{}: no such file; it looks like a position: give it with --board",
                    path.display()
                )))
            }
            (Some(path), _) => input::read_possible_positions(path, self.games.empties)?
                .into_iter()
                .map(|(_, obf)| obf)
                .enumerate()
                .map(|(i, obf)| (i + 1, obf))
                .collect(),
            (None, Some(text)) => vec![(1, input::parse_position("--board", text)?.0)],
            (None, None) => return Err(Failure::Input("give a file or --board".into())),
        };
        Ok(positions)
    }
}

/// Whether `score` and `mv` agree with the answers of `obf` (exact scores, or signs for
/// win/draw/loss); `None` when the line carries no answers.
pub fn check_answers(obf: &Obf, score: i32, mv: Option<Move>, wld: bool) -> Option<bool> {
    let best = obf.best_score()?;
    let listed = |m: Move| obf.answers.iter().find(|a| a.mv == m).map(|a| a.score);
    Some(if wld {
        score.signum() == best.signum()
            && mv
                .and_then(listed)
                .is_none_or(|s| s.signum() == best.signum())
    } else {
        // A known score without moves (WTHOR) checks the score alone.
        score == best && (obf.answers.is_empty() || mv.and_then(listed) == Some(best))
    })
}

/// What a table row adds after an answer that disagrees with the line's: "MISMATCH" and
/// what the line expects (its best score, or win/draw/loss, and the moves given with it);
/// nothing where the answer agrees or the line gives none.
pub fn mismatch_note(obf: &Obf, expected_ok: Option<bool>, wld: bool) -> String {
    let (Some(false), Some(best)) = (expected_ok, obf.best_score()) else {
        return String::new();
    };
    let expected = match (wld, best.signum()) {
        (false, _) => format!("{best:+}"),
        (true, 1) => "win".into(),
        (true, 0) => "draw".into(),
        (true, _) => "loss".into(),
    };
    let moves: Vec<String> = obf
        .answers
        .iter()
        .filter(|a| a.score == best)
        .map(|a| a.mv.to_string())
        .collect();
    match moves.is_empty() {
        true => format!("  MISMATCH (expected {expected})"),
        false => format!("  MISMATCH (expected {expected} by {})", moves.join(" ")),
    }
}

/// The totals of a batch command over its positions, and how it ends: a JSON summary
/// object or a "total:" line, then exit 1 on mismatches or 130 after an interrupt.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Totals {
    summary: bool,
    /// Which shard of the file ran ("I/N"), for `engine merge`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Positions in the whole file (every shard's), for `engine merge` to find the
    /// missing ones.
    pub file_positions: usize,
    /// Positions answered.
    pub positions: usize,
    /// Nodes searched for them.
    pub nodes: u64,
    /// Seconds spent on them.
    pub seconds: f64,
    /// Answers that disagree with the file's.
    pub mismatches: usize,
    /// Positions left unknown at the time limit (`--time-limit`), not among `positions`.
    pub unknown: usize,
    /// Whether Ctrl-C or SIGTERM ended the run early.
    pub interrupted: bool,
    /// The run, which its parts share (`engine merge` refuses parts of different runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<seal::Run>,
    /// The rows written as JSON ([`Totals::json_row`]), which the summary vouches for.
    #[serde(skip)]
    pub rows: seal::RowDigest,
}

impl Totals {
    /// Nothing counted yet.
    pub fn new() -> Totals {
        Totals {
            summary: true,
            ..Totals::default()
        }
    }

    /// Counts one position solved.
    pub fn add(&mut self, nodes: u64, seconds: f64, expected_ok: Option<bool>) {
        self.positions += 1;
        self.nodes += nodes;
        self.seconds += seconds;
        self.mismatches += (expected_ok == Some(false)) as usize;
    }

    /// Counts one position left unknown at the time limit, after `nodes` and `seconds`.
    pub fn add_unknown(&mut self, nodes: u64, seconds: f64) {
        self.unknown += 1;
        self.nodes += nodes;
        self.seconds += seconds;
    }

    /// The JSON line of `row`, counted in the rows the summary vouches for.
    pub fn json_row(&mut self, row: &impl serde::Serialize) -> String {
        self.rows.add_row(row);
        serde_json::to_string(row).expect("a row serialises")
    }

    /// Prints the totals (`extra` fields join the JSON object, which is sealed with the
    /// digest of the rows and its own checksum; `note` ends the line) and
    /// turns mismatches and interrupts into the command's failure.
    pub fn finish(
        self,
        out: &mut impl Write,
        json: bool,
        extra: serde_json::Map<String, serde_json::Value>,
        note: &str,
    ) -> Result<(), Failure> {
        if json {
            let mut object = match serde_json::to_value(&self) {
                Ok(serde_json::Value::Object(object)) => object,
                _ => unreachable!("totals serialise to an object"),
            };
            object.extend(extra);
            self.rows.write_into(&mut object);
            seal::seal(&mut object);
            write_json(out, &object)?;
        } else {
            writeln!(
                out,
                "total: {} positions, {:.3} s, {} nodes, {:.0} nodes/s, {} mismatches{}{note}{}",
                self.positions,
                self.seconds,
                self.nodes,
                self.nodes as f64 / self.seconds.max(1e-9),
                self.mismatches,
                match self.unknown {
                    0 => String::new(),
                    n => format!(", {n} unknown (over the time limit)"),
                },
                if self.interrupted {
                    " (interrupted)"
                } else {
                    ""
                }
            )?;
        }
        if self.mismatches > 0 {
            return Err(Failure::Mismatch(self.mismatches));
        }
        if self.interrupted {
            return Err(Failure::Interrupted);
        }
        Ok(())
    }
}

/// A progress bar on stderr counting positions.
pub fn position_progress(len: usize) -> ProgressBar {
    progress_bar(len as u64, "positions")
}

/// A progress bar on stderr counting `len` things named `unit`, with the time left.
pub fn progress_bar(len: u64, unit: &str) -> indicatif::ProgressBar {
    let progress = indicatif::ProgressBar::new(len);
    let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}}) {{msg}}");
    progress
        .set_style(indicatif::ProgressStyle::with_template(&template).expect("a valid template"));
    progress
}

/// The progress display the tools share (bars and spinners on stderr).
pub use indicatif::ProgressBar;

/// A spinner on stderr for one long step with no count to show: what runs (`message`)
/// and for how long. Like the bars, it draws only on a terminal.
pub fn spinner(message: String) -> indicatif::ProgressBar {
    let progress = indicatif::ProgressBar::new_spinner();
    progress.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg}, {elapsed}")
            .expect("a valid template"),
    );
    progress.set_message(message);
    progress.enable_steady_tick(std::time::Duration::from_millis(250));
    progress
}

/// The evaluation a command uses (flattened into its arguments).
#[cfg(feature = "search")]
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Evaluation: trained (built in), hand, or a weights file written by `engine train`.
    #[arg(long, default_value = "trained")]
    pub eval: String,
}

#[cfg(feature = "search")]
impl EvalArgs {
    /// The evaluation named.
    pub fn load(&self) -> Result<Arc<dyn Evaluation>, Failure> {
        load_eval(&self.eval)
    }
}

/// The evaluation named on the command line: `trained` (the weights built in), `hand`, or
/// the path of a weights file written by `engine train`.
#[cfg(feature = "search")]
pub fn load_eval(spec: &str) -> Result<Arc<dyn Evaluation>, Failure> {
    Ok(match spec {
        "trained" => PatternEval::embedded(),
        "hand" => Arc::new(HandEval),
        path => {
            let bytes = read_weights(path)?;
            Arc::new(
                PatternEval::decode(&bytes).map_err(|e| Failure::Input(format!("{path}: {e}")))?,
            )
        }
    })
}

/// The bytes of a weights file (`engine train`'s), read with a cap: a wrong file
/// (`/dev/zero`, a database) is an error at once, not a read into memory without end.
#[cfg(feature = "search")]
pub fn read_weights(path: &str) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    // Room for sets of patterns many times the trained one's (engine/weights/eval.bin).
    const MOST_BYTES: u64 = 64 << 20;
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::Input(format!("{path}: cannot read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MOST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("{path}: cannot read: {e}")))?;
    if bytes.len() as u64 > MOST_BYTES {
        return Err(Failure::Input(format!(
            "{path}: over {} MiB: not a weights file",
            MOST_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// A ProbCut level of the midgame search (index into `probcut::CONFIDENCE`), or `None`
/// for a full-width search.
pub type Selectivity = Option<u8>;

/// `--selectivity` of the commands that search with the midgame search.
#[cfg(feature = "search")]
#[derive(clap::Args)]
pub struct SelectivityArgs {
    /// ProbCut level of the search: 0-4 (1.1 to 3.3 sigma) or "none" (full width).
    #[arg(long, default_value = "1", value_parser = parse_selectivity)]
    pub selectivity: Selectivity,
}

/// `--selectivity` values: a level 0 to 4 (1.1 to 3.3 sigma) or `none`.
#[cfg(feature = "search")]
pub fn parse_selectivity(text: &str) -> Result<Selectivity, String> {
    match text {
        "none" => Ok(None),
        _ => match text.parse::<u8>() {
            Ok(level) if level < crate::search::probcut::EXACT => Ok(Some(level)),
            _ => Err(format!("{text:?} is not a ProbCut level 0-4 or none")),
        },
    }
}

/// How a selectivity is shown: "probcut 1.5 sigma" or "full width".
#[cfg(feature = "search")]
pub fn selectivity_name(selectivity: Selectivity) -> String {
    match selectivity {
        Some(level) => format!(
            "probcut {} sigma",
            crate::search::probcut::CONFIDENCE[level as usize]
        ),
        None => "full width".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subcommand that needs an argument (however clap says so) shows its help when given
    /// none; one that runs without arguments still runs.
    #[test]
    fn bare_subcommands_that_need_arguments_show_their_help() {
        use clap::{Arg, Command};
        let tool = Command::new("tool")
            .subcommand(
                Command::new("count")
                    .arg(
                        Arg::new("plies")
                            .long("plies")
                            .required_unless_present("discs"),
                    )
                    .arg(Arg::new("discs").long("discs")),
            )
            .subcommand(Command::new("file").arg(Arg::new("file").required(true)))
            .subcommand(Command::new("bench").arg(Arg::new("seconds").long("seconds")));
        let tool = with_help_when_bare(tool);
        for name in ["count", "file"] {
            let error = tool
                .clone()
                .try_get_matches_from(["tool", name])
                .unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
                "{name}"
            );
        }
        assert!(tool.try_get_matches_from(["tool", "bench"]).is_ok());
    }

    #[test]
    fn answers() {
        let obf: Obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;"
            .parse()
            .unwrap();
        let g8 = "g8".parse().unwrap();
        let h1 = "h1".parse().unwrap();
        assert_eq!(check_answers(&obf, 18, Some(g8), false), Some(true));
        assert_eq!(check_answers(&obf, 18, Some(h1), false), Some(false));
        assert_eq!(check_answers(&obf, 1, Some(h1), true), Some(true));
        assert_eq!(check_answers(&obf, -1, Some(g8), true), Some(false));
        assert_eq!(check_answers(&Obf::new(obf.position), 0, None, false), None);
        assert_eq!(
            mismatch_note(&obf, Some(false), false),
            "  MISMATCH (expected +18 by g8)"
        );
        assert_eq!(
            mismatch_note(&obf, Some(false), true),
            "  MISMATCH (expected win by g8)"
        );
        assert_eq!(mismatch_note(&obf, Some(true), false), "");
    }
}
