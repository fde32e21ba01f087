//! Runtime choice of instruction set for the hot recursive code.
//!
//! The binary must run on any x86-64 (and other targets), but move generation and flips run
//! about 1.7 times faster with AVX2/BMI2/LZCNT/POPCNT (x86-64-v3; see results/perft.md).
//! [`isa_versions!`] compiles a group of mutually recursive functions twice, once per
//! instruction set, so that calls inside the group stay within one version (direct calls,
//! `#[inline(always)]` helpers such as `Board::moves` and `flip` compiled with the same
//! features); [`isa_dispatch!`] picks the version once, at the entry point.

use std::sync::OnceLock;

/// An instruction set the hot code is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Baseline code for the target (x86-64: SSE2 only).
    Portable,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (Haswell, Zen and later).
    X86_64V3,
}

impl Isa {
    /// The best instruction set this CPU runs (found once: dispatches in the search, as
    /// the ordering searches', ask often; five feature tests each were 2.6% of the
    /// solver's time at 26 empties).
    #[inline]
    pub fn detect() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("lzcnt")
                    && std::is_x86_feature_detected!("popcnt")
                {
                    return Isa::X86_64V3;
                }
            }
            Isa::Portable
        })
    }

    /// Every instruction set this CPU runs (for tests and benchmarks).
    pub fn available() -> Vec<Isa> {
        match Isa::detect() {
            Isa::Portable => vec![Isa::Portable],
            Isa::X86_64V3 => vec![Isa::Portable, Isa::X86_64V3],
        }
    }
}

/// Compiles the functions given into two sibling modules, `portable` and (on x86-64)
/// `x86_64_v3`, the latter with the v3 target features; each version's calls to the others
/// resolve inside its own module.
///
/// Each module also has its own `flip(sq, p, o)` and `stable_discs(p, o)`, which the
/// functions should call rather than [`crate::flip::flip`] and
/// [`crate::search::stability::stable_discs`]: in `x86_64_v3` they are the AVX2 versions
/// (the flip has 1.8 times the throughput of the scalar one, which the compiler does not
/// vectorise). Helpers outside the group take them as closures, `|sq, p, o| flip(sq, p,
/// o)` (closures inherit the features; `#[target_feature]` functions are not `Fn`).
///
/// In hot code, such closures must only be handed to `#[inline(always)]` helpers: one given
/// to a library adapter (`Iterator::map`, `Option::or_else`) is not inlined into it (the
/// adapter lacks the features), so each call is a real call whose result comes back
/// through the stack (7-11% of the exact solver's time; results/ffo.md, session 14).
/// Plain loops, and functions defined outside the group, inline.
#[macro_export]
macro_rules! isa_versions {
    ($(
        $(#[$attr:meta])*
        fn $name:ident ($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block
    )*) => {
        mod portable {
            #[allow(unused_imports)]
            use super::*;
            /// The discs flipped by playing `sq` (see [`crate::flip::flip`]).
            #[allow(dead_code)]
            #[inline(always)]
            fn flip(sq: usize, p: u64, o: u64) -> u64 {
                $crate::flip::flip(sq, p, o)
            }
            /// See [`crate::search::stability::stable_discs`].
            #[allow(dead_code)]
            #[inline(always)]
            fn stable_discs(p: u64, o: u64) -> u64 {
                $crate::search::stability::stable_discs(p, o)
            }
            $(
                $(#[$attr])*
                // The closures around `flip` and the group's functions are needed in the
                // other module: keep the two alike.
                #[allow(clippy::redundant_closure)]
                pub(super) fn $name($($arg: $ty),*) -> $ret $body
            )*
        }
        #[cfg(target_arch = "x86_64")]
        mod x86_64_v3 {
            #[allow(unused_imports)]
            use super::*;
            /// The discs flipped by playing `sq` (see [`crate::flip::flip_avx2`]).
            #[allow(dead_code)]
            #[inline]
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            fn flip(sq: usize, p: u64, o: u64) -> u64 {
                $crate::flip::flip_avx2(sq, p, o)
            }
            /// See [`crate::search::stability::stable_discs_avx2`].
            #[allow(dead_code)]
            #[inline]
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            fn stable_discs(p: u64, o: u64) -> u64 {
                $crate::search::stability::stable_discs_avx2(p, o)
            }
            $(
                $(#[$attr])*
                #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
                pub(super) fn $name($($arg: $ty),*) -> $ret $body
            )*
        }
    };
}

/// Calls `f(args)` from the module of instruction set `isa` (an [`Isa`]) made by
/// [`isa_versions!`]; `isa` must be one this CPU runs, as [`Isa::detect`] gives.
#[macro_export]
macro_rules! isa_dispatch {
    ($isa:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $isa {
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::Isa::X86_64V3 => {
                assert!($crate::cpu::Isa::detect() == $crate::cpu::Isa::X86_64V3);
                // SAFETY: the CPU has the features, checked just above. (The arguments are
                // plain expressions of the caller's: nothing unsafe is done to them.)
                #[allow(clippy::macro_metavars_in_unsafe)]
                unsafe { x86_64_v3::$f($($arg),*) }
            }
            _ => portable::$f($($arg),*),
        }
    };
}
