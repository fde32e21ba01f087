//! Ctrl-C and SIGTERM: long runs stop the current item and keep what they finished.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// The signal that stopped the run (0: none yet), for the exit status 128 + signal.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The one flag the signals raise.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// A flag that Ctrl-C (SIGINT) and SIGTERM (what `timeout`, Slurm and GNU parallel send)
/// raise: long runs stop the current position, still print what they finished, and exit
/// with 130 or 143 ([`exit_code`](super::exit_code)).
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

/// The signal that stopped the run, 0 if none did.
pub(super) fn stopping_signal() -> i32 {
    SIGNAL.load(Relaxed)
}
