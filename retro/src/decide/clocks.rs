//! The race's limits: wall time, processor time (read sparingly: a reading scans the
//! processes) and the interrupt, watched while the racers run.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use engine::clock::CpuTimer;

/// The race's clocks: since when it runs, its time limit, and its processor-time limit
/// with the timer that reads it (read only under a limit: a reading scans the processes).
pub(super) struct Clocks {
    pub(super) start: Instant,
    pub(super) time_limit: Option<Duration>,
    pub(super) cpu_limit: Option<(f64, CpuTimer)>,
}

/// Watches the clocks and the interrupt until every racer is back (they stop as soon as
/// one answered), and stops them at a limit; whether the processor-time limit stopped
/// them. A reading of processor time scans every process of the machine: it is taken at
/// most every CPU_READ_EVERY, and at most a twentieth of the time (see
/// `next_cpu_read_in`).
pub(super) fn watch(
    all_finished: &std::sync::mpsc::Receiver<()>,
    workers: usize,
    clocks: &Clocks,
    interrupt: &AtomicBool,
    done: &AtomicBool,
) -> bool {
    let mut cpu_spent = false;
    let mut back = 0;
    let mut next_cpu_read = Instant::now();
    while back < workers {
        match all_finished.recv_timeout(Duration::from_millis(5)) {
            Ok(()) => back += 1,
            Err(_) => {
                let late = clocks
                    .time_limit
                    .is_some_and(|limit| clocks.start.elapsed() >= limit);
                let spent = clocks.cpu_limit.as_ref().is_some_and(|(limit, cpu)| {
                    let now = Instant::now();
                    now >= next_cpu_read && {
                        let used = cpu.elapsed();
                        next_cpu_read = Instant::now() + next_cpu_read_in(now.elapsed());
                        used.is_some_and(|used| used >= *limit)
                    }
                });
                cpu_spent |= spent;
                if late || spent || interrupt.load(Relaxed) {
                    done.store(true, Relaxed);
                }
            }
        }
    }
    cpu_spent
}

/// How often the race reads the processor time it has spent, for [`Options::cpu_limit`](super::Options::cpu_limit).
const CPU_READ_EVERY: Duration = Duration::from_millis(100);

/// The longest wait between two readings of processor time: what a position may run past
/// its limit at most.
const CPU_READ_AT_MOST: Duration = Duration::from_secs(5);

/// The wait before the next reading of processor time, after a reading that took `took`:
/// twenty times as long, so that readings cost at most a twentieth of the time, but never
/// more than [`CPU_READ_AT_MOST`]. A process stopped during a reading (Ctrl-Z, or a batch
/// system suspending the job) sees a reading as long as the stop, and without the bound
/// would not read again for twenty times that, running on past its limit.
fn next_cpu_read_in(took: Duration) -> Duration {
    (took * 20).clamp(CPU_READ_EVERY, CPU_READ_AT_MOST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_reading_of_processor_time_postpones_the_next_by_a_bounded_wait() {
        let ms = Duration::from_millis;
        assert_eq!(next_cpu_read_in(ms(1)), CPU_READ_EVERY);
        assert_eq!(next_cpu_read_in(ms(10)), ms(200));
        // A reading during which the process was stopped for 20 minutes.
        assert_eq!(
            next_cpu_read_in(Duration::from_secs(1200)),
            CPU_READ_AT_MOST
        );
    }
}
