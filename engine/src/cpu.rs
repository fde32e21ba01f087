//! Runtime choice of instruction set for the hot recursive code.
//!
//! The binary must run on any x86-64 (and other targets), but move generation and flips run
//! about 1.7 times faster with AVX2/BMI2/LZCNT/POPCNT (x86-64-v3; see results/perft.md).
//! [`isa_versions!`](crate::isa_versions) compiles a group of mutually recursive functions once per instruction
//! set, so that calls inside the group stay within one version (direct calls,
//! `#[inline(always)]` helpers such as `Board::moves` and `flip` compiled with the same
//! features); [`isa_dispatch!`](crate::isa_dispatch) picks the version once, at the entry point.
//!
//! CPUs that execute 256-bit operations as two 128-bit halves (AMD Zen 1 and Zen+, Hygon
//! Dhyana) run the AVX2 versions slower than scalar code with the same BMI/LZCNT/POPCNT
//! instructions (perft: results/perft.md), so they get a third version without AVX. The
//! environment variable `OTHELLO_ISA` (`portable`, `x86-64-v3-scalar`, `x86-64-v3`) overrides
//! the choice, so that versions can be timed side by side on one machine.

use std::sync::OnceLock;

/// An instruction set the hot code is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Baseline code for the target (x86-64: SSE2 only).
    Portable,
    /// x86-64-v3's scalar extensions (BMI1, BMI2, LZCNT, POPCNT) without AVX: for CPUs that
    /// split 256-bit operations in halves. Pattern features are read without PEXT, which
    /// these CPUs run in microcode.
    X86_64V3Scalar,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (Haswell, Zen and later).
    X86_64V3,
}

/// What the CPU offers, asked once.
struct Cpu {
    /// AVX2, BMI1, BMI2, LZCNT and POPCNT.
    v3: bool,
    /// 256-bit operations run as two halves: AMD family 17h models below 30h (Zen 1, Zen+)
    /// and Hygon family 18h.
    splits_256: bool,
}

fn cpu() -> &'static Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            let v3 = std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt");
            use std::arch::x86_64::__cpuid;
            let leaf0 = __cpuid(0);
            let (vendor, signature) = ([leaf0.ebx, leaf0.edx, leaf0.ecx], __cpuid(1).eax);
            let base_family = (signature >> 8) & 0xf;
            let family = base_family
                + if base_family == 0xf {
                    (signature >> 20) & 0xff
                } else {
                    0
                };
            let model = ((signature >> 4) & 0xf) | (((signature >> 16) & 0xf) << 4);
            let name = |text: &[u8; 12]| {
                let word =
                    |i: usize| u32::from_le_bytes(text[i..i + 4].try_into().expect("4 bytes"));
                [word(0), word(4), word(8)]
            };
            let splits_256 = (vendor == name(b"AuthenticAMD") && family == 0x17 && model < 0x30)
                || (vendor == name(b"HygonGenuine") && family == 0x18);
            Cpu { v3, splits_256 }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Cpu {
            v3: false,
            splits_256: false,
        }
    })
}

impl Isa {
    /// Every instruction set, from the baseline up.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::X86_64V3Scalar, Isa::X86_64V3];

    /// The instruction set the hot code runs: the fastest one for this CPU, or the one
    /// `OTHELLO_ISA` names if this CPU runs it. Found once: dispatches in the search, as
    /// the ordering searches', ask often, and five feature tests each time showed in the
    /// solver's profile.
    #[inline]
    pub fn detect() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            if let Ok(name) = std::env::var("OTHELLO_ISA") {
                match Isa::from_name(&name) {
                    Some(isa) if isa.runs_here() => return isa,
                    Some(_) => eprintln!("warning: OTHELLO_ISA={name}: this CPU does not run it"),
                    None => {
                        let names: Vec<&str> = Isa::ALL.iter().map(|isa| isa.name()).collect();
                        eprintln!(
                            "warning: OTHELLO_ISA={name} is not one of {}",
                            names.join(", ")
                        );
                    }
                }
            }
            let cpu = cpu();
            match (cpu.v3, cpu.splits_256) {
                (false, _) => Isa::Portable,
                (true, true) => Isa::X86_64V3Scalar,
                (true, false) => Isa::X86_64V3,
            }
        })
    }

    /// Whether this CPU runs the code of `self`.
    #[inline]
    pub fn runs_here(self) -> bool {
        self == Isa::Portable || cpu().v3
    }

    /// Every instruction set this CPU runs (for tests and benchmarks).
    pub fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.runs_here()).collect()
    }

    /// The instruction set called `name` (as [`Isa::name`] gives).
    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|isa| isa.name() == name)
    }

    /// The name `OTHELLO_ISA` takes.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::X86_64V3Scalar => "x86-64-v3-scalar",
            Isa::X86_64V3 => "x86-64-v3",
        }
    }
}

/// Compiles the functions given into sibling modules, `portable` and (on x86-64)
/// `x86_64_v3_scalar` and `x86_64_v3`, the latter two with their target features; each
/// version's calls to the others resolve inside its own module.
///
/// Each module also has its own `flip(sq, p, o)` and `stable_discs(p, o)`, which the
/// functions should call rather than [`crate::flip::flip`] and
/// [`crate::stability::stable_discs`]: in `x86_64_v3` they are the AVX2 versions
/// (the flip has 1.8 times the throughput of the scalar one, which the compiler does not
/// vectorise). Helpers outside the group take them as closures, `|sq, p, o| flip(sq, p,
/// o)` (closures inherit the features; `#[target_feature]` functions are not `Fn`).
///
/// In hot code, such closures must only be handed to `#[inline(always)]` helpers: one given
/// to a library adapter (`Iterator::map`, `Option::or_else`) is not inlined into it (the
/// adapter lacks the features), so each call is a real call whose result comes back
/// through the stack (results/ffo.md, "Figures once in code comments").
/// Plain loops, and functions defined outside the group, inline.
///
/// Call it with parentheses, `isa_versions!( ... );`: rustfmt formats the functions of a
/// macro called so (they parse as items), but leaves one called with braces as written.
#[macro_export]
macro_rules! isa_versions {
    // One version: the helpers with `$helper` attributes, each function with `$feature`.
    (@module $module:ident, [$(#[$helper:meta])*], [$($feature:tt)*], $flip:path, $stable:path,
     $($group:tt)*) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            /// The discs flipped by playing `sq` (see [`crate::flip`]).
            #[allow(dead_code)]
            $(#[$helper])*
            fn flip(sq: usize, p: u64, o: u64) -> u64 {
                $flip(sq, p, o)
            }
            /// See [`crate::stability`].
            #[allow(dead_code)]
            $(#[$helper])*
            fn stable_discs(p: u64, o: u64) -> u64 {
                $stable(p, o)
            }
            $crate::isa_versions!(@functions [$($feature)*] $($group)*);
        }
    };
    // The functions one by one (a function list cannot repeat inside the features' list).
    (@functions [$($feature:tt)*]) => {};
    (@functions [$($feature:tt)*]
     $(#[$attr:meta])* fn $name:ident ($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block
     $($rest:tt)*) => {
        $(#[$attr])*
        $($feature)*
        // The closures around `flip` and the group's functions are needed in the other
        // modules: keep the versions alike.
        #[allow(clippy::redundant_closure)]
        pub(super) fn $name($($arg: $ty),*) -> $ret $body
        $crate::isa_versions!(@functions [$($feature)*] $($rest)*);
    };
    ($($group:tt)*) => {
        $crate::isa_versions!(@module portable, [#[inline(always)]], [],
            $crate::flip::flip, $crate::stability::stable_discs, $($group)*);
        #[cfg(target_arch = "x86_64")]
        $crate::isa_versions!(@module x86_64_v3_scalar,
            [#[inline] #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]],
            [#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]],
            $crate::flip::flip, $crate::stability::stable_discs, $($group)*);
        #[cfg(target_arch = "x86_64")]
        $crate::isa_versions!(@module x86_64_v3,
            [#[inline] #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]],
            [#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]],
            $crate::flip::flip_avx2, $crate::stability::stable_discs_avx2, $($group)*);
    };
}

/// Calls `f(args)` from the module of instruction set `isa` (an [`Isa`]) made by
/// [`isa_versions!`](crate::isa_versions); `isa` must be one this CPU runs, as [`Isa::detect`] gives.
#[macro_export]
macro_rules! isa_dispatch {
    ($isa:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $isa {
            #[cfg(target_arch = "x86_64")]
            isa @ ($crate::cpu::Isa::X86_64V3 | $crate::cpu::Isa::X86_64V3Scalar) => {
                assert!(isa.runs_here());
                // SAFETY: the CPU has the features, checked just above. (The arguments are
                // plain expressions of the caller's: nothing unsafe is done to them.)
                #[allow(clippy::macro_metavars_in_unsafe)]
                unsafe {
                    if isa == $crate::cpu::Isa::X86_64V3 {
                        x86_64_v3::$f($($arg),*)
                    } else {
                        x86_64_v3_scalar::$f($($arg),*)
                    }
                }
            }
            _ => portable::$f($($arg),*),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Isa;

    #[test]
    fn the_chosen_set_runs_here_and_names_are_distinct() {
        assert!(Isa::detect().runs_here());
        assert!(Isa::available().contains(&Isa::detect()));
        assert_eq!(Isa::available()[0], Isa::Portable);
        for isa in Isa::ALL {
            assert_eq!(Isa::from_name(isa.name()), Some(isa));
        }
        assert_eq!(Isa::from_name("avx2"), None);
    }
}
