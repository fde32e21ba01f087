//! Command-line plumbing shared by the project's binaries (`engine`, `dfpn`, ...): one way
//! to report errors and exit, read position files, shard them, check answers, show progress
//! and stop on Ctrl-C.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

#[cfg(feature = "search")]
use crate::eval::{Evaluation, HandEval, PatternEval};
use crate::obf::Obf;
use crate::position::Move;
use crate::{input, ParseError, ParseErrorKind};

/// What can end a command: bad input (exit 2), answers that disagree with the expected
/// ones or a claim found false (exit 1), an interrupt (exit 130 for Ctrl-C, 143 for
/// SIGTERM), or a failed write (a
/// closed pipe ends quietly).
#[derive(Debug)]
pub enum Failure {
    /// Bad input: the message names the file, line and problem (exit 2).
    Input(String),
    /// This many answers disagree with the expected ones (exit 1).
    Mismatch(usize),
    /// A claim found false: a model, a proof or a witness that does not check (exit 1).
    Invalid(String),
    /// Ctrl-C or SIGTERM (exit 130 or 143).
    Interrupted,
    /// A failed write.
    Io(io::Error),
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Failure {
        Failure::Input(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// Parses the command line; a usage error prints clap's whole message (what is wrong, the
/// usage, a suggestion for a mistyped name; the help where nothing was given) on stderr
/// and exits with status 2. Errors found after parsing stay one line ([`exit_code`]).
pub fn parse_args<C: clap::Parser>() -> Result<C, ExitCode> {
    match C::try_parse() {
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

/// The exit status (and the one-line message) for the outcome of a command.
pub fn exit_code(program: &str, result: Result<(), Failure>) -> ExitCode {
    match result.and_then(|()| io::stdout().flush().map_err(Failure::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("{program}: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Mismatch(n)) => {
            eprintln!("{program}: {n} answers differ from the expected ones");
            ExitCode::from(1)
        }
        Err(Failure::Invalid(message)) => {
            eprintln!("{program}: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Interrupted) => {
            let signal = match SIGNAL.load(Relaxed) {
                0 => 2,
                s => s,
            };
            ExitCode::from((128 + signal).clamp(0, 255) as u8)
        }
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("{program}: {e}");
            ExitCode::from(2)
        }
    }
}

/// The number of threads `--threads` asks for: `threads`, or one per core without it.
pub fn thread_count(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// A pool of `threads` workers (default: one per core).
pub fn thread_pool(threads: Option<u32>) -> Result<rayon::ThreadPool, Failure> {
    let threads = threads.map_or(0, |t| t as usize);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Input(format!("cannot start {threads} threads: {e}")))
}

/// Writes `value` as one line of JSON.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Failure> {
    let line = serde_json::to_string(value).map_err(|e| Failure::Io(e.into()))?;
    writeln!(out, "{line}")?;
    Ok(())
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

/// Every JSON object of the JSON Lines `files` (blank lines skipped), for the commands
/// that put runs back together.
pub fn read_json_lines(files: &[std::path::PathBuf]) -> Result<Vec<JsonLine>, Failure> {
    let mut rows = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let json = |source: &str, line, text: &str| {
            if text.trim().is_empty() {
                return Ok(None);
            }
            serde_json::from_str(text).map(Some).map_err(|e| {
                ParseError::new(
                    source,
                    line,
                    0,
                    ParseErrorKind::Io(format!("not JSON ({e})")),
                )
            })
        };
        for (line, value) in crate::obf::parse_lines(&file, crate::obf::open(path)?, json)? {
            rows.push(JsonLine {
                file: file.clone(),
                line,
                value,
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
    /// OBF file of positions (answers like "; G8:+18;" are checked), or a file of games
    /// (WTHOR .wtb, GGF .ggf: see --empties); `-` reads OBF from standard input.
    #[arg(required_unless_present = "board", conflicts_with = "board")]
    pub file: Option<PathBuf>,
    /// Which position of each game a file of games gives.
    #[command(flatten)]
    pub games: GameArgs,
    /// One position: an OBF line or a move list.
    #[arg(long, allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Take only positions I, I+N, I+2N... (1-based) of the file, for clusters.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
}

impl PositionArgs {
    /// The positions to work on, and the totals to count them in, which name the shard
    /// and the file's size (what `engine merge` checks).
    pub fn read_batch(&self) -> Result<(Vec<(usize, Obf)>, Totals), Failure> {
        let all = self.read_unsharded()?;
        let totals = Totals {
            shard: self.shard.map(|(i, n)| format!("{i}/{n}")),
            file_positions: all.len(),
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
        match self.shard {
            Some((i, n)) => positions
                .into_iter()
                .filter(|(index, _)| (index - 1) % n == i - 1)
                .collect(),
            None => positions,
        }
    }

    fn read_unsharded(&self) -> Result<Vec<(usize, Obf)>, Failure> {
        let positions: Vec<(usize, Obf)> = match (&self.file, &self.board) {
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

/// `--shard I/N`: (I, N), 1 <= I <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shard must be I/N with 1 <= I <= N, found {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The parts of a split (`--shard I/N` runs) as the merge commands read them, with where
/// each was read. Part I of N is every item whose number is I - 1 modulo N (the items of
/// every `--shard` in the project: positions of a file, subtrees, hash partitions), so a
/// coarser split's part is the union of a finer one's whose N it divides (6/64 is 6/128
/// and 70/128). Parts of several splits are therefore whole where, modulo the least common
/// multiple of their Ns, each residue is in exactly one part: a cluster can rerun a slow
/// part as halves.
pub struct Split<T> {
    parts: Vec<((usize, usize), T, String)>,
}

impl<T> Default for Split<T> {
    fn default() -> Split<T> {
        Split { parts: Vec::new() }
    }
}

impl<T> Split<T> {
    /// The least common multiple of the Ns that [`Split::complete`] checks residue by
    /// residue; beyond it a set of parts is refused rather than checked slowly.
    const MOST_RESIDUES: usize = 1 << 20;

    /// Adds part `shard` ("I/N") read at `at`; refuses a shard that does not parse (the
    /// message says where). Overlaps and gaps are found by [`Split::complete`].
    pub fn add(&mut self, shard: &str, part: T, at: &str) -> Result<(), String> {
        let shard = parse_shard(shard).map_err(|e| format!("{at}: {e}"))?;
        self.parts.push((shard, part, at.to_string()));
        Ok(())
    }

    /// The part read first.
    pub fn first(&self) -> Option<&T> {
        self.parts.first().map(|(_, part, _)| part)
    }

    /// Whether no part was read.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// How many parts were read.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Every part, ordered by (I, N), when together they hold every item once; else the
    /// first shard missing ("shard 2/3 is missing", N the least common multiple) or a pair
    /// of parts that overlap, with where each was read.
    pub fn complete(mut self) -> Result<Vec<T>, String> {
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut modulus = 1;
        for &((_, n), ..) in &self.parts {
            modulus = modulus / gcd(modulus, n) * n;
            if modulus > Self::MOST_RESIDUES {
                return Err(format!(
                    "splits whose least common multiple is over {} parts",
                    Self::MOST_RESIDUES
                ));
            }
        }
        // Stable: of two reads of one shard, the first read is named first.
        self.parts.sort_by_key(|&((i, n), ..)| (i, n));
        let mut owner: Vec<Option<usize>> = vec![None; modulus];
        for (k, &((i, n), _, ref at)) in self.parts.iter().enumerate() {
            for residue in (i - 1..modulus).step_by(n) {
                if let Some(first) = owner[residue] {
                    let ((j, m), _, first_at) = &self.parts[first];
                    return Err(if (i, n) == (*j, *m) {
                        format!("shard {i}/{n} is in {first_at} and again in {at}")
                    } else {
                        format!("shard {i}/{n} ({at}) overlaps shard {j}/{m} ({first_at})")
                    });
                }
                owner[residue] = Some(k);
            }
        }
        if let Some(missing) = owner.iter().position(Option::is_none) {
            return Err(format!("shard {}/{modulus} is missing", missing + 1));
        }
        Ok(self.parts.into_iter().map(|(_, part, _)| part).collect())
    }
}

/// `--hash-mb` of the commands that search: one budget for all of a command's tables,
/// 256 MiB by default everywhere, divided where there are several by
/// [`crate::memory::share_mb`].
#[derive(clap::Args, Debug)]
pub struct HashArgs {
    /// Memory in MiB for the tables of the search, all of them together (the exact
    /// solver keeps 2 MiB more, for the nodes near the leaves).
    #[arg(long, default_value_t = 256, value_parser = parse_memory_mb, allow_hyphen_values = true)]
    pub hash_mb: u64,
}

impl HashArgs {
    /// The budget in MiB.
    pub fn mb(&self) -> usize {
        self.hash_mb as usize
    }
}

/// Memory and threads of a command that searches on every core: one declaration for the
/// solvers of all the tools.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// `--hash-mb`.
    #[command(flatten)]
    pub hash: HashArgs,
    /// Search threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// A memory budget in MiB for tables (`--hash-mb`, `--memory-mb`): at least 2 (the
/// tools that split it between two tables need a MiB each) and at most this machine's
/// memory, checked here so that a budget the machine cannot give is a usage error rather
/// than an allocation failure (an abort) or the kernel's out-of-memory kill.
pub fn parse_memory_mb(text: &str) -> Result<u64, String> {
    let mb: u64 = text
        .parse()
        .map_err(|_| format!("{text:?}: the budget is a positive number of MiB"))?;
    if mb < 2 {
        return Err(format!("{mb} MiB is too little: at least 2"));
    }
    match physical_memory_mb() {
        Some(machine) if mb > machine => Err(format!(
            "{mb} MiB is more than the {machine} MiB of memory this machine has"
        )),
        _ => Ok(mb),
    }
}

/// The machine's memory in MiB, where the system says.
fn physical_memory_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads system constants and touches no memory of ours.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return Some((pages as u64 * size as u64) >> 20);
        }
    }
    None
}

/// Whose processor time a [`cpu_seconds`] reading counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuClock {
    /// The calling thread's.
    Thread,
    /// Every thread of this process, and its child processes (external solvers), those it
    /// has waited for and, on Linux, those still running with what they started: the cost
    /// of work that a run hands to several threads or programs, at any moment.
    ProcessAndChildren,
}

/// Processor seconds (user and system) used so far by `clock`'s scope, where the system
/// says (`None` elsewhere). Wall seconds on a shared machine measure the load as much as
/// the work; these measure the work.
pub fn cpu_seconds(clock: CpuClock) -> Option<f64> {
    #[cfg(unix)]
    {
        let read = |id: libc::clockid_t| {
            let mut t = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: clock_gettime writes only the timespec it is given.
            (unsafe { libc::clock_gettime(id, &mut t) } == 0)
                .then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
        };
        match clock {
            CpuClock::Thread => read(libc::CLOCK_THREAD_CPUTIME_ID),
            CpuClock::ProcessAndChildren => {
                // SAFETY: getrusage writes only the rusage it is given; zeroed is a valid
                // rusage.
                let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
                if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
                    return None;
                }
                let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
                let waited = tv(usage.ru_utime) + tv(usage.ru_stime);
                // Read after the waited ones: a child reaped in between is missed once
                // rather than counted twice.
                let running = running_descendants_cpu_seconds();
                read(libc::CLOCK_PROCESS_CPUTIME_ID).map(|own| own + waited + running)
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = clock;
        None
    }
}

/// Processor seconds of this process's descendants that it has not waited for (each with
/// the children it waited for itself), from `/proc`: a solver still running is charged as
/// it runs, which a limit on processor time needs. 0 where there is no `/proc`.
#[cfg(unix)]
fn running_descendants_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        // Per process: its parent and its own and waited children's ticks (fields 4 and
        // 14-17 of `stat`, counted after the command name, which may hold spaces).
        let stat = |entry: std::fs::DirEntry| -> Option<(u32, u32, u64)> {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let text = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let fields: Vec<&str> = text[text.rfind(')')? + 2..].split(' ').collect();
            let number = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
            let ticks = (14..=17).map(number).sum::<Option<u64>>()?;
            Some((pid, number(4)? as u32, ticks))
        };
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return 0.0;
        };
        let processes: Vec<(u32, u32, u64)> = entries.flatten().filter_map(stat).collect();
        let mut family = vec![std::process::id()];
        let mut ticks = 0;
        // Parents before children is not the order of /proc: grow the family until no
        // process joins it.
        let mut joined = true;
        while joined {
            joined = false;
            for &(pid, parent, t) in &processes {
                if family.contains(&parent) && !family.contains(&pid) {
                    family.push(pid);
                    ticks += t;
                    joined = true;
                }
            }
        }
        // SAFETY: sysconf reads a system constant and touches no memory of ours.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if per_second > 0 {
            return ticks as f64 / per_second as f64;
        }
    }
    0.0
}

/// Processor time since it was started, on one [`CpuClock`]: the counterpart of
/// `Instant` for [`cpu_seconds`].
#[derive(Clone, Copy, Debug)]
pub struct CpuTimer {
    clock: CpuClock,
    start: Option<f64>,
}

impl CpuTimer {
    /// A timer on `clock`, from now.
    pub fn start(clock: CpuClock) -> CpuTimer {
        CpuTimer {
            clock,
            start: cpu_seconds(clock),
        }
    }

    /// Seconds since the start, where the system says.
    pub fn elapsed(&self) -> Option<f64> {
        self.start
            .zip(cpu_seconds(self.clock))
            .map(|(start, now)| now - start)
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
    /// Whether Ctrl-C or SIGTERM ended the run early.
    pub interrupted: bool,
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

    /// Prints the totals (`extra` fields join the JSON object; `note` ends the line) and
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
            write_json(out, &object)?;
        } else {
            writeln!(
                out,
                "total: {} positions, {:.3} s, {} nodes, {:.0} nodes/s, {} mismatches{note}{}",
                self.positions,
                self.seconds,
                self.nodes,
                self.nodes as f64 / self.seconds.max(1e-9),
                self.mismatches,
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

/// The signal that stopped the run (0: none yet), for the exit status 128 + signal.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The one flag the signals raise.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// A flag that Ctrl-C (SIGINT) and SIGTERM (what `timeout`, Slurm and GNU parallel send)
/// raise: long runs stop the current position, still print what they finished, and exit
/// with 130 or 143 ([`exit_code`]).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    Arc::clone(STOP.get_or_init(|| {
        catch_signals();
        Arc::new(AtomicBool::new(false))
    }))
}

/// What a signal handler may do: atomic stores only.
fn on_signal(signal: i32) {
    SIGNAL.store(signal, Relaxed);
    if let Some(stop) = STOP.get() {
        stop.store(true, Relaxed);
    }
}

#[cfg(target_os = "linux")]
fn catch_signals() {
    extern "C" fn handler(signal: libc::c_int) {
        on_signal(signal);
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to atomics, which is async-signal-safe.
        unsafe {
            libc::signal(signal, handler as *const () as libc::sighandler_t);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn catch_signals() {
    // ctrlc's `termination` feature covers SIGTERM too, without saying which came.
    let _ = ctrlc::set_handler(|| on_signal(2));
}

/// A progress bar on stderr counting positions.
pub fn position_progress(len: usize) -> indicatif::ProgressBar {
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
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Input(format!("{path}: cannot read: {e}")))?;
            Arc::new(
                PatternEval::decode(&bytes).map_err(|e| Failure::Input(format!("{path}: {e}")))?,
            )
        }
    })
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

    /// Work of this thread moves its clock and the process's; a waited-for child's work
    /// moves the process's clock only.
    #[test]
    fn cpu_clocks_count_threads_and_children() {
        let read = || {
            (
                cpu_seconds(CpuClock::Thread).unwrap(),
                cpu_seconds(CpuClock::ProcessAndChildren).unwrap(),
            )
        };
        let (thread0, process0) = read();
        let spin = CpuTimer::start(CpuClock::Thread);
        let mut x = 1u64;
        while spin.elapsed().unwrap() < 0.2 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let (thread1, process1) = read();
        assert!(thread1 - thread0 >= 0.2 && process1 - process0 >= 0.2);
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let (thread2, process2) = read();
        assert!(thread2 - thread1 < 0.05, "the child is not this thread");
        assert!(process2 - process1 >= 0.1, "the child's work is counted");
    }

    /// The work of a process that a child started and that still runs is counted before
    /// anything is waited for (what a limit on a running solver's time reads).
    #[cfg(target_os = "linux")]
    #[test]
    fn cpu_clock_counts_running_descendants() {
        use std::os::unix::process::CommandExt;
        // What this thread spends reading the clock (the scan of /proc) is not the
        // child's: counted is the rest.
        let read = || {
            cpu_seconds(CpuClock::ProcessAndChildren).unwrap()
                - cpu_seconds(CpuClock::Thread).unwrap()
        };
        let before = read();
        let mut child = std::process::Command::new("sh")
            .args([
                "-c",
                "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 60'; true",
            ])
            .process_group(0)
            .spawn()
            .unwrap();
        let waited = std::time::Instant::now();
        let mut counted = 0.0;
        while counted < 0.1 && waited.elapsed().as_secs() < 30 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            counted = read() - before;
        }
        let running = child.try_wait().unwrap().is_none();
        // SAFETY: kill(2) has no memory effects; the group is the child's own.
        unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
        child.wait().unwrap();
        assert!(running && counted >= 0.1, "{counted} s counted");
    }

    #[test]
    fn memory_budgets_within_the_machine() {
        assert_eq!(parse_memory_mb("256"), Ok(256));
        assert!(parse_memory_mb("1").unwrap_err().contains("at least 2"));
        assert!(parse_memory_mb("-1")
            .unwrap_err()
            .contains("positive number"));
        let machine = physical_memory_mb().expect("Linux says");
        assert!(parse_memory_mb(&(machine + 1).to_string())
            .unwrap_err()
            .contains("this machine has"));
    }

    #[test]
    fn a_split_is_whole_with_every_shard_once() {
        let mut split = Split::default();
        split.add("2/3", 'b', "b.jsonl:1").unwrap();
        split.add("1/3", 'a', "a.jsonl:1").unwrap();
        assert_eq!(split.first(), Some(&'b'));
        assert!(split
            .add("0/3", 'e', "e.jsonl:3")
            .unwrap_err()
            .starts_with("e.jsonl:3: "));
        let mut missing = Split::default();
        missing.add("1/3", 'a', "a").unwrap();
        missing.add("3/3", 'c', "c").unwrap();
        assert_eq!(missing.complete().unwrap_err(), "shard 2/3 is missing");
        let mut again = Split::default();
        for (shard, part, at) in [
            ("2/3", 'b', "b.jsonl:1"),
            ("1/3", 'a', "a"),
            ("3/3", 'c', "c"),
        ] {
            again.add(shard, part, at).unwrap();
        }
        again.add("2/3", 'd', "d.jsonl:4").unwrap();
        assert_eq!(
            again.complete().unwrap_err(),
            "shard 2/3 is in b.jsonl:1 and again in d.jsonl:4"
        );
        split.add("3/3", 'c', "c.jsonl:1").unwrap();
        assert_eq!(split.len(), 3);
        assert_eq!(split.complete().unwrap(), vec!['a', 'b', 'c']);
    }

    /// 1/2 is 1/4 and 3/4: with 2/4 and 4/4 every residue modulo 4 is in one part; 1/3
    /// beside them overlaps 1/2 (residue 0 modulo 12), and without 4/4 one is missing.
    #[test]
    fn splits_that_nest_are_whole_when_they_cover_each_residue_once() {
        let split = |shards: &[&'static str]| {
            let mut split = Split::default();
            for (k, shard) in shards.iter().enumerate() {
                split
                    .add(shard, *shard, &format!("line {}", k + 1))
                    .unwrap();
            }
            split.complete()
        };
        assert_eq!(split(&["4/4", "1/2", "2/4"]), Ok(vec!["1/2", "2/4", "4/4"]));
        assert_eq!(
            split(&["1/2", "2/4", "4/4", "1/3"]),
            Err("shard 1/3 (line 4) overlaps shard 1/2 (line 1)".into())
        );
        assert_eq!(split(&["1/2", "2/4"]), Err("shard 4/4 is missing".into()));
        assert_eq!(
            split(&["1/1024", "1/1025"]),
            Err("splits whose least common multiple is over 1048576 parts".into())
        );
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("x").is_err());
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
    }
}
