//! What a run may use: threads (`--threads`) and memory for its tables (`--hash-mb`,
//! `--memory-mb`), checked against the machine where the system says.

use super::failure::Failure;

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

/// `--hash-mb`, declared once for every command with tables: one budget for all of a
/// command's tables, divided where there are several by [`crate::memory::share_mb`].
/// `DEFAULT_MB` is the command's default: 256 MiB for the searches, what was measured to
/// suit the others (perft's subtree counts, datagen's many small solves).
#[derive(clap::Args, Debug)]
pub struct HashArgs<const DEFAULT_MB: u64 = 256> {
    /// Memory in MiB for the command's tables, all of them together (the exact solver
    /// keeps 2 MiB more, for the nodes near the leaves).
    #[arg(long, default_value_t = DEFAULT_MB, value_parser = parse_memory_mb, allow_hyphen_values = true)]
    pub hash_mb: u64,
}

impl<const DEFAULT_MB: u64> HashArgs<DEFAULT_MB> {
    /// The budget in MiB.
    pub fn mb(&self) -> usize {
        self.hash_mb as usize
    }
}

/// `--threads`, declared once for every command of every tool that takes it.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ThreadArgs {
    /// Threads to work with, 1 to 1024 (default: one per core); the command's description
    /// says what each does.
    #[arg(long = "threads", id = "threads", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub count: Option<u32>,
}

impl ThreadArgs {
    /// A pool of these threads.
    pub fn pool(&self) -> Result<rayon::ThreadPool, Failure> {
        thread_pool(self.count)
    }
}

/// Memory and threads of a command that searches on every core: one declaration for the
/// solvers of all the tools.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// `--hash-mb`.
    #[command(flatten)]
    pub hash: HashArgs,
    /// `--threads`: the search's.
    #[command(flatten)]
    pub threads: ThreadArgs,
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
    match (physical_memory_mb(), address_space_left_mb()) {
        (Some(machine), _) if mb > machine => Err(format!(
            "{mb} MiB is more than the {machine} MiB of memory this machine has"
        )),
        (_, Some(left)) if mb > left => Err(format!(
            "{mb} MiB is more than the {left} MiB this process may still map under its \
             address-space limit (ulimit -v), less {HEADROOM_MB} MiB for its threads and code"
        )),
        _ => Ok(mb),
    }
}

/// Address space a process keeps beside its tables: threads' stacks, buffers, the code.
const HEADROOM_MB: u64 = 256;

/// What the address-space limit (`ulimit -v`, RLIMIT_AS) leaves for tables in MiB, where
/// there is one: the limit less what the process maps now and [`HEADROOM_MB`]. A table
/// beyond it would make the allocation fail, which Rust answers with an abort.
fn address_space_left_mb() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
            || limit.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let mapped_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some((limit.rlim_cur >> 20).saturating_sub((mapped_kb >> 10) + HEADROOM_MB))
    }
    #[cfg(not(target_os = "linux"))]
    None
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
