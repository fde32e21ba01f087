use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use engine::cli::{self, Failure};
use engine::clock::{self, CpuClock, CpuTimer};
use engine::{input, Position};
use retro::decide::Candidates;
use retro::{decide, Decision, Frontier, Method, Options, SatSolver};

use crate::RunArgs;

#[derive(clap::Args)]
pub struct SearchArgs {
    /// Enumerate every reachable position with up to this many discs first; the backward
    /// search stops there (memory: about 50 MB at 14 discs, 4-8x more per extra disc).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(4..=16))]
    frontier_discs: u32,
    /// Refuted positions the backward search remembers (it restarts the memo when full).
    #[arg(long, default_value_t = 1 << 22)]
    memo_entries: usize,
    /// Positions the backward search visits before its thread turns to SAT.
    #[arg(long, default_value_t = 2_000_000)]
    backward_nodes: u64,
    /// A SAT solver to race (repeat for several): "varisat" (embedded), or a DIMACS
    /// solver command such as "kissat" or "cadical" (given the CNF file last; each run
    /// adds `-q --seed=K` to these two; named alone, "kissat" also gets the race's
    /// `--probe=false`, and "cadical" `--unsat --congruence=false --sweep=false` on the
    /// whole question, which a command with options of its own does not).
    /// Default: kissat and cadical where on the PATH (scripts/install-solvers.sh), else
    /// varisat.
    #[arg(long = "sat-solver", value_name = "SOLVER")]
    sat_solvers: Vec<String>,
    /// Positions the backward search visits alone before the race starts (what it
    /// decides so fast, `check` decides on every thread at once, a position each).
    #[arg(long, default_value_t = 20_000)]
    quick_nodes: u64,
    /// Keep the CNF and the checked proof of each flip-accounting or SAT "no" in this
    /// directory (INDEX.cnf with INDEX.varisat or INDEX.lrat; for a CSV line, one per
    /// side to move: INDEX-black.*, INDEX-white.*), named in the output; `satgen
    /// check-proof` checks them again. Without it the proofs are checked and dropped.
    #[arg(long, value_name = "DIR", conflicts_with = "trust_unsat")]
    pub(crate) proof: Option<PathBuf>,
    /// Take a SAT solver's UNSAT without a checked proof. By default every SAT "no"
    /// carries one: only the UNSAT of a solver that writes proofs (CaDiCaL 1.9 or later:
    /// LRAT; varisat) answers the whole question, varisat standing in where none is
    /// raced; Kissat, whose proofs satgen does not check, then searches only for games.
    #[arg(long)]
    trust_unsat: bool,
    /// One thread opens with the whole question, before the parts of it that find games
    /// fastest: quicker where most positions are unreachable (random boards), slower to
    /// find the games of real ones.
    #[arg(long)]
    whole_first: bool,
    /// Give up (UNKNOWN) once the position has used this many seconds of processor
    /// time, every thread and solver process together (Linux): the same work whatever
    /// else runs on the machine, where the wall-clock --time-limit counts the load too.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) cpu_limit: Option<f64>,
    #[command(flatten)]
    checker: satgen::proof::CheckerArgs,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

impl SearchArgs {
    pub(crate) fn options(&self, time_limit: Option<f64>) -> Result<Options, Failure> {
        let solvers = if self.sat_solvers.is_empty() {
            SatSolver::detect()
        } else {
            self.sat_solvers
                .iter()
                .map(|s| match s.as_str() {
                    "varisat" => SatSolver::Varisat,
                    command => SatSolver::external(command),
                })
                .collect()
        };
        Ok(Options {
            workers: cli::thread_count(self.run.threads.count),
            solvers,
            backward_nodes: self.backward_nodes,
            memo_entries: self.memo_entries,
            quick_nodes: self.quick_nodes,
            time_limit: time_limit
                .map(|t| cli::seconds(t, "--time-limit"))
                .transpose()?,
            cpu_limit: self
                .cpu_limit
                .map(|t| match clock::cpu_seconds(CpuClock::ProcessAndChildren) {
                    Some(_) => cli::seconds(t, "--cpu-limit"),
                    None => Err(Failure::Input(format!(
                        "--cpu-limit {t}: this system does not report processor time"
                    ))),
                })
                .transpose()?,
            trust_unsat: self.trust_unsat,
            whole_first: self.whole_first,
            checker: self.checker.checker()?,
        })
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// The position: an OBF line (board and side to move) or a move list.
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    /// Give up (UNKNOWN) after this many seconds; default: no limit.
    #[arg(long)]
    time_limit: Option<f64>,
    #[command(flatten)]
    search: SearchArgs,
}

/// One position's answer (for a CSV line: either colour to move).
#[derive(serde::Serialize)]
pub(crate) struct Row {
    index: usize,
    /// true, false, or null (undecided within the limit).
    pub(crate) reachable: Option<bool>,
    method: Option<Method>,
    witness: Option<String>,
    certificate: Option<String>,
    solver: Option<String>,
    /// The proof files of a "no" by accounting or SAT (`--proof`): one, or one per side
    /// to move.
    proofs: Vec<String>,
    /// For a "no" by the flip accounting or SAT: whether its proof was checked (false:
    /// the solver's word, `--trust-unsat`); null for the other answers.
    proof_checked: Option<bool>,
    nodes: u64,
    seconds: f64,
    /// Processor seconds spent on it, solver processes included (null where the system
    /// does not say): on a shared machine a position left UNKNOWN after little of it
    /// was starved rather than hard.
    cpu_seconds: Option<f64>,
    /// The --cpu-limit that left it UNKNOWN (absent otherwise): `--done` asks again only
    /// with a larger one.
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_limit: Option<f64>,
}

/// Whether a row of `check --json` is a "no" by a solver (the flip accounting, SAT)
/// without a checked proof: the solver's word (`--trust-unsat`, or a row from before
/// rows said `proof_checked`).
pub fn unchecked_no(row: &serde_json::Value) -> bool {
    row["reachable"] == false
        && (row["method"] == "sat" || row["method"] == "accounting")
        && row["proof_checked"] != true
}

impl Row {
    /// With `--proof DIR`: an accounting answer's CNF and proof written there, and named
    /// in the row. (The accounting ignores the side to move: any candidate serves.)
    pub(crate) fn write_proof(
        &mut self,
        dir: Option<&std::path::Path>,
        position: &Position,
    ) -> Result<(), Failure> {
        let Some(dir) = dir.filter(|_| self.method == Some(Method::Accounting)) else {
            return Ok(());
        };
        let refuted = satgen::accounting::accounting_refutes(position).ok_or_else(|| {
            Failure::Invalid(format!(
                "position {}: the accounting no longer refutes it",
                self.index
            ))
        })?;
        let failed = |e: std::io::Error| Failure::Input(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let cnf = dir.join(format!("{}.cnf", self.index));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&cnf).map_err(failed)?);
        satgen::dimacs::write_accounting(&mut file, position, &refuted.formula)?;
        file.flush()?;
        let proof = dir.join(format!("{}.varisat", self.index));
        std::fs::write(&proof, &refuted.proof).map_err(failed)?;
        self.proofs = vec![proof.display().to_string()];
        Ok(())
    }

    fn answer(&self) -> &'static str {
        match self.reachable {
            Some(true) => "REACHABLE",
            Some(false) => "UNREACHABLE",
            None => "UNKNOWN",
        }
    }
}

/// The answer for `candidates` (the same board with either side to move, or one
/// position): reachable when one is, unreachable when every one is.
/// With `proofs` (`--proof DIR`), a SAT "no" keeps its files there (see [`SearchArgs`]).
pub(crate) fn answer(
    index: usize,
    frontier: &Frontier,
    candidates: &[Position],
    options: &Options,
    interrupt: &std::sync::atomic::AtomicBool,
    proofs: Option<&std::path::Path>,
) -> Result<Row, Failure> {
    if let Some(dir) = proofs {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Input(format!("{}: {e}", dir.display())))?;
    }
    combine(index, candidates, CpuClock::ProcessAndChildren, |p| {
        let keep = proofs.map(|dir| {
            dir.join(if candidates.len() > 1 {
                format!("{index}-{}", p.side)
            } else {
                index.to_string()
            })
        });
        decide(frontier, p, options, interrupt, keep.as_deref())
            .map(Some)
            .map_err(Failure::input)
    })
    .map(|row| row.expect("decide always answers"))
}

/// [`answer`] by [`retro::decide::quick`] alone: `None` where that does not decide.
pub(crate) fn quick_answer(
    index: usize,
    frontier: &Frontier,
    candidates: &[Position],
    options: &Options,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Option<Row> {
    combine(index, candidates, CpuClock::Thread, |p| {
        Ok(retro::decide::quick(frontier, p, options, interrupt))
    })
    .ok()
    .flatten()
}

/// One row from the decisions on `candidates` ([`Candidates`]); `None` if `decide` left
/// one undecided with `None`. `clock` counts what `decide` runs on: its thread, or every
/// thread and solver process.
fn combine(
    index: usize,
    candidates: &[Position],
    clock: CpuClock,
    decide: impl FnMut(&Position) -> Result<Option<Decision>, Failure>,
) -> Result<Option<Row>, Failure> {
    let start = Instant::now();
    let cpu = CpuTimer::start(clock);
    let Some(decided) = Candidates::decide(candidates, decide)? else {
        return Ok(None);
    };
    let answer = decided.answer();
    Ok(Some(Row {
        index,
        reachable: answer.reachable,
        method: answer.method,
        witness: answer.witness.as_deref().map(engine::game::format_moves),
        certificate: decided.certificate(),
        solver: answer.solver.clone(),
        proofs: decided
            .proofs()
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        proof_checked: decided.proof_checked(),
        nodes: decided.nodes(),
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu.elapsed(),
        cpu_limit: answer.cpu_limit,
    }))
}

pub(crate) fn frontier(args: &SearchArgs, pool: &rayon::ThreadPool) -> Result<Frontier, Failure> {
    let start = Instant::now();
    let frontier = pool.install(|| Frontier::new(args.frontier_discs))?;
    eprintln!(
        "retro: frontier of {} positions (up to {} discs) in {:.1} s",
        frontier.len(),
        frontier.discs(),
        start.elapsed().as_secs_f64()
    );
    Ok(frontier)
}

pub(crate) fn line(row: &Row) -> String {
    let method = row.method.map_or("-".to_string(), |m| {
        serde_json::to_value(m)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    });
    let detail = row
        .witness
        .as_deref()
        .or(row.certificate.as_deref())
        .unwrap_or("");
    format!(
        "{:>5} {:>11} {:>10} {:>12} {:>9.3}  {detail}",
        row.index,
        row.answer(),
        method,
        row.nodes,
        row.seconds,
    )
}

pub(crate) const HEADER: &str =
    "    #      answer     method        nodes   seconds  witness or certificate";

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let position = input::parse_any_position("--board", &args.board)?;
    let options = args.search.options(args.time_limit)?;
    let frontier = frontier(&args.search, &args.search.run.threads.pool()?)?;
    let interrupt = cli::interrupt_flag();
    let mut row = answer(
        1,
        &frontier,
        &[position],
        &options,
        &interrupt,
        args.search.proof.as_deref(),
    )?;
    row.write_proof(args.search.proof.as_deref(), &position)?;
    if args.search.run.output.json {
        cli::write_json(out, &row)?;
    } else {
        writeln!(out, "{HEADER}\n{}", line(&row))?;
    }
    if interrupt.load(Relaxed) {
        return Err(Failure::Interrupted);
    }
    Ok(())
}
