//! Processor time, the measure of work behind `--cpu-limit` and the tools' timings: on a
//! shared machine wall seconds measure the load as much as the work; and deadlines for
//! work that reads a stop flag ([`until`]).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

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

/// How [`until`] ended the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The work ended by itself (or was stopped by `stop`).
    Itself,
    /// The deadline passed first: the flag the work read was raised for it.
    Deadline,
}

/// Runs `work` with a flag that is raised when `stop` is or at `deadline` (none: `stop`
/// itself): a watcher thread polls the clock, so that the search reads one flag only, as
/// it reads Ctrl-C's. The work's result and whether the deadline ended it.
pub fn until<T>(
    deadline: Option<Instant>,
    stop: &AtomicBool,
    work: impl FnOnce(&AtomicBool) -> T,
) -> (T, Ended) {
    let Some(deadline) = deadline else {
        return (work(stop), Ended::Itself);
    };
    let (expired, late, done) = (
        AtomicBool::new(stop.load(Relaxed)),
        AtomicBool::new(false),
        AtomicBool::new(false),
    );
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Relaxed) {
                let now = Instant::now();
                if now >= deadline || stop.load(Relaxed) {
                    late.store(now >= deadline, Relaxed);
                    expired.store(true, Relaxed);
                    break;
                }
                // Wakes early when the work ends; polls Ctrl-C meanwhile.
                std::thread::park_timeout((deadline - now).min(Duration::from_millis(20)));
            }
        });
        let result = work(&expired);
        done.store(true, Relaxed);
        watcher.thread().unpark();
        watcher.join().expect("the watcher does not panic");
        let ended = match late.load(Relaxed) && !stop.load(Relaxed) {
            true => Ended::Deadline,
            false => Ended::Itself,
        };
        (result, ended)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Work that waits for its flag, and how long it waited.
    fn wait_for(flag: &AtomicBool) -> Duration {
        let start = Instant::now();
        while !flag.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        start.elapsed()
    }

    #[test]
    fn until_raises_the_flag_at_the_deadline_or_with_stop() {
        let stop = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_millis(50);
        let (waited, ended) = until(Some(deadline), &stop, wait_for);
        assert_eq!(ended, Ended::Deadline);
        assert!(waited >= Duration::from_millis(45), "{waited:?}");
        // Work that ends by itself ends the watcher at once, however far the deadline.
        let far = Instant::now() + Duration::from_secs(3600);
        let started = Instant::now();
        assert_eq!(until(Some(far), &stop, |_| 7), (7, Ended::Itself));
        assert!(started.elapsed() < Duration::from_secs(60));
        // Ctrl-C before the deadline is not the deadline; without one, the work reads stop.
        stop.store(true, Relaxed);
        let (waited, ended) = until(Some(far), &stop, wait_for);
        assert_eq!(ended, Ended::Itself);
        assert!(waited < Duration::from_secs(60));
        assert_eq!(
            until(None, &stop, |f| std::ptr::eq(f, &stop)),
            (true, Ended::Itself)
        );
    }
}
