//! The processor clocks, in a test process of their own: what the process's clock reads
//! is then this file's work alone (in the library's unit tests, the other tests' threads
//! would add theirs), and its two tests run one after the other.

use engine::clock::{cpu_seconds, CpuClock, CpuTimer};

#[test]
fn cpu_clocks() {
    cpu_clocks_count_threads_and_children();
    #[cfg(target_os = "linux")]
    cpu_clock_counts_running_descendants();
}

/// Work of this thread moves its clock and the process's; a waited-for child's work
/// moves the process's clock only.
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
fn cpu_clock_counts_running_descendants() {
    use std::os::unix::process::CommandExt;
    // What this thread spends reading the clock (the scan of /proc) is not the
    // child's: counted is the rest.
    let read = || {
        cpu_seconds(CpuClock::ProcessAndChildren).unwrap() - cpu_seconds(CpuClock::Thread).unwrap()
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
