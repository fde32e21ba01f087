//! Proofs of unsatisfiability and their check, in the two formats satgen produces. varisat
//! (embedded) writes a proof in its own format as it solves (each learnt clause with the
//! clauses it follows from); varisat's checker, a separate module, re-derives every step by
//! unit propagation from the formula's clauses and the steps before it, and accepts the
//! proof only if it reaches the empty clause. CaDiCaL (external) writes LRAT, which
//! [`crate::lrat`] checks.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use varisat::checker::{ProofTranscriptProcessor, ProofTranscriptStep};

use crate::formula::Formula;
use crate::lrat::LratError;
use crate::solve::to_varisat;

/// Why a proof is not accepted, or could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// A file of the question could not be read.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What reading it said.
        source: io::Error,
    },
    /// The proof is not a regular file (`/dev/zero` is no proof).
    #[error("{}: not a regular file", .0.display())]
    NotAFile(PathBuf),
    /// The proof file is empty.
    #[error("the proof is empty")]
    Empty,
    /// The CNF does not parse.
    #[error("the CNF: {0}")]
    Cnf(String),
    /// A varisat proof that varisat's checker rejects.
    #[error("{0}")]
    Varisat(String),
    /// A varisat proof that its checker could not survive (screened before it).
    #[error("byte {at}, step {step}: {fault}: not a varisat proof")]
    NotVarisat {
        /// The step's first byte.
        at: u64,
        /// The step, from 1.
        step: u64,
        /// What is wrong with it.
        fault: Fault,
    },
    /// Every step follows, but none is the empty clause.
    #[error("every step follows, but the proof never derives the empty clause")]
    NoEmptyClause,
    /// An LRAT proof that the builtin checker rejects.
    #[error(transparent)]
    Lrat(#[from] LratError),
    /// A checker's name that is none of [`Checker::NAMES`].
    #[error("{0:?}: one of builtin, cake_lpr, both")]
    UnknownChecker(String),
    /// cake_lpr is asked for and not found.
    #[error("cake_lpr is not installed (scripts/install-cake-lpr.sh builds it; or set CAKE_LPR)")]
    CakeLprMissing,
    /// cake_lpr could not be started.
    #[error("cannot run {}: {source}", program.display())]
    CakeLprFailed {
        /// The program run.
        program: PathBuf,
        /// Why it did not start.
        source: io::Error,
    },
    /// cake_lpr does not verify the proof: its last words.
    #[error("cake_lpr rejects it: {0}")]
    CakeLprRejects(String),
}

/// What makes a varisat proof one that its checker could not survive ([`screen_varisat`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The proof ends inside a step.
    #[error("the proof ends inside a step (cut off?)")]
    Cut,
    /// A variable far beyond the CNF's.
    #[error("variable {variable}, where the CNF has {variables}")]
    Variable {
        /// The variable read.
        variable: u64,
        /// The CNF's variables.
        variables: u64,
    },
    /// A list longer than the bytes left.
    #[error("a list of {len} items in {left} bytes left")]
    LongList {
        /// Its length.
        len: u64,
        /// The bytes left in the proof.
        left: u64,
    },
    /// A literal far beyond the CNF's variables.
    #[error("a literal beyond the CNF's variables")]
    Literal,
    /// More hash bits than a `u64` holds.
    #[error("{0} hash bits")]
    HashBits(u64),
    /// A step code varisat does not write.
    #[error("unknown step code {0}")]
    UnknownCode(u64),
}

/// Solves `formula` with varisat writing a proof: a model (value per variable, index 0 =
/// variable 1) if it is satisfiable, else the proof (varisat's format).
pub fn solve(formula: &Formula) -> Result<Vec<bool>, Vec<u8>> {
    let mut proof = Vec::new();
    crate::solve::run_varisat(formula, Some(&mut proof)).ok_or(proof)
}

/// The proof that `formula` is unsatisfiable (varisat's format), or `None` if it has a
/// model.
pub fn refute(formula: &Formula) -> Option<Vec<u8>> {
    solve(formula).err()
}

/// Records whether the checked proof derived the empty clause.
#[derive(Default)]
struct Refuted(bool);

impl ProofTranscriptProcessor for Refuted {
    fn process_step(&mut self, step: &ProofTranscriptStep) -> Result<(), anyhow::Error> {
        if matches!(step, ProofTranscriptStep::Unsat) {
            self.0 = true;
        }
        Ok(())
    }
}

/// Checks a varisat proof against the clauses given to `load`: `Ok` only if every step
/// follows and the empty clause is derived; else what went wrong, with the step.
fn check_with(
    load: impl FnOnce(&mut varisat::checker::Checker) -> Result<(), ProofError>,
    proof: impl Read,
) -> Result<(), ProofError> {
    let mut refuted = Refuted::default();
    {
        let mut checker = varisat::checker::Checker::new();
        checker.add_transcript(&mut refuted);
        load(&mut checker)?;
        checker
            .check_proof(proof)
            .map_err(|e| ProofError::Varisat(e.to_string()))?;
    }
    if refuted.0 {
        Ok(())
    } else {
        Err(ProofError::NoEmptyClause)
    }
}

/// Checks a varisat proof of `formula`'s unsatisfiability.
pub fn check(formula: &Formula, proof: &[u8]) -> Result<(), ProofError> {
    check_with(
        |checker| {
            let mut clause = Vec::new();
            for c in formula.cnf.iter() {
                clause.clear();
                clause.extend(c.iter().map(|&l| to_varisat(l)));
                checker
                    .add_clause(&clause)
                    .map_err(|e| ProofError::Varisat(e.to_string()))?;
            }
            Ok(())
        },
        proof,
    )
}

/// Checks a varisat proof against a DIMACS CNF.
pub fn check_dimacs(cnf: impl Read, proof: impl Read) -> Result<(), ProofError> {
    check_with(
        |checker| {
            checker
                .add_dimacs_cnf(cnf)
                .map_err(|e| ProofError::Cnf(e.to_string()))
        },
        proof,
    )
}

/// The proof formats satgen checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// varisat's own (the embedded solver's).
    Varisat,
    /// LRAT, text or binary (CaDiCaL 1.9 and later with `--lrat`).
    Lrat,
}

impl Format {
    /// Told apart by the first byte: varisat's step codes are numbers below 32, binary
    /// LRAT begins with a step letter (`a`, `d`), text LRAT with a digit or a comment.
    pub fn detect(first: u8) -> Format {
        if first < 32 && !first.is_ascii_whitespace() {
            Format::Varisat
        } else {
            Format::Lrat
        }
    }
}

/// Which checker checks an LRAT proof (a varisat proof has one: varisat's own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checker {
    /// The project's own ([`crate::lrat`]).
    #[default]
    Builtin,
    /// cake_lpr, verified in CakeML: the checker the SAT competition trusts.
    CakeLpr,
    /// Both: the proof stands only if both accept it.
    Both,
}

impl Checker {
    /// The names `--checker` takes, as [`std::str::FromStr`] reads them.
    pub const NAMES: [&'static str; 3] = ["builtin", "cake_lpr", "both"];
}

impl std::str::FromStr for Checker {
    type Err = ProofError;

    fn from_str(text: &str) -> Result<Checker, ProofError> {
        match text {
            "builtin" => Ok(Checker::Builtin),
            "cake_lpr" => Ok(Checker::CakeLpr),
            "both" => Ok(Checker::Both),
            _ => Err(ProofError::UnknownChecker(text.into())),
        }
    }
}

/// `--checker`, for every command that checks proofs (flattened into its arguments).
#[cfg(feature = "cli")]
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct CheckerArgs {
    /// Who checks an LRAT proof: the builtin checker, cake_lpr (verified in CakeML, the
    /// SAT competition's; scripts/install-cake-lpr.sh), or both (the proof stands only if
    /// both accept it). A varisat proof is checked by varisat's checker, the one of its
    /// format.
    #[arg(long, default_value = "builtin", value_parser = parse_checker)]
    pub checker: Checker,
}

#[cfg(feature = "cli")]
fn parse_checker(text: &str) -> Result<Checker, ProofError> {
    text.parse()
}

#[cfg(feature = "cli")]
impl CheckerArgs {
    /// The checker asked, or why it cannot run here (cake_lpr not installed): an error
    /// before any work, not a proof rejected after it.
    pub fn checker(&self) -> Result<Checker, engine::cli::Failure> {
        if self.checker != Checker::Builtin && cake_lpr().is_none() {
            let missing = ProofError::CakeLprMissing;
            return Err(engine::cli::Failure::Input(format!("--checker: {missing}")));
        }
        Ok(self.checker)
    }
}

/// How a proof was checked: its format and the checkers that accepted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The proof's format.
    pub format: Format,
    /// Who accepted it, in words ("cake_lpr", "the builtin LRAT checker and cake_lpr").
    pub by: &'static str,
}

/// The cake_lpr to run: `$CAKE_LPR` where set (none if it names no file), else
/// `cake_lpr` on the PATH (scripts/install-cake-lpr.sh).
pub fn cake_lpr() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("CAKE_LPR") {
        let path = std::path::PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join("cake_lpr"))
        .find(|path| path.is_file())
}

/// cake_lpr on the CNF and the LRAT proof: it prints `s VERIFIED UNSAT` on its standard
/// output when the proof holds (its exit status is 0 either way), else why not.
fn run_cake_lpr(cnf: &Path, proof: &Path) -> Result<(), ProofError> {
    let program = cake_lpr().ok_or(ProofError::CakeLprMissing)?;
    let output = match std::process::Command::new(&program)
        .arg(cnf)
        .arg(proof)
        .output()
    {
        Ok(output) => output,
        Err(source) => return Err(ProofError::CakeLprFailed { program, source }),
    };
    let said = String::from_utf8_lossy(&output.stdout);
    if said.lines().any(|line| line.trim() == "s VERIFIED UNSAT") {
        return Ok(());
    }
    let why = String::from_utf8_lossy(&output.stderr);
    let last = why
        .lines()
        .chain(said.lines())
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("no verdict");
    Err(ProofError::CakeLprRejects(last.trim().into()))
}

/// Checks the proof file against the CNF file (either format): how it was checked, or
/// the first step that fails. An LRAT proof goes to `checker`; a varisat proof to
/// varisat's checker, the only one of its format. The proof is untrusted input: a
/// varisat proof is first read through [`screen_varisat`], so that a corrupt or hostile
/// one is an error, never a panic, an abort on a huge allocation or memory without end in
/// varisat's checker (which trusts the lengths it reads); and it must be a regular file
/// (`/dev/zero` is no proof).
pub fn check_files(cnf: &Path, proof: &Path, checker: Checker) -> Result<Checked, ProofError> {
    let file_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ProofError::File { path, source }
    };
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map(BufReader::new)
            .map_err(file_error(path))
    };
    let mut reader = open(proof)?;
    let size = reader.get_ref().metadata().map_err(file_error(proof))?;
    if !size.is_file() {
        return Err(ProofError::NotAFile(proof.into()));
    }
    let first = reader
        .fill_buf()
        .map_err(file_error(proof))?
        .first()
        .copied();
    match first.map(Format::detect) {
        None => Err(ProofError::Empty),
        Some(Format::Lrat) => {
            if checker != Checker::CakeLpr {
                crate::lrat::check(open(cnf)?, reader)?;
            }
            if checker != Checker::Builtin {
                run_cake_lpr(cnf, proof)?;
            }
            Ok(Checked {
                format: Format::Lrat,
                by: match checker {
                    Checker::Builtin => "the builtin LRAT checker",
                    Checker::CakeLpr => "cake_lpr",
                    Checker::Both => "the builtin LRAT checker and cake_lpr",
                },
            })
        }
        Some(Format::Varisat) => {
            let header = crate::dimacs::read_header(open(cnf)?)
                .map_err(|e| ProofError::Cnf(e.located(cnf)))?;
            screen_varisat(reader, size.len(), header.variables as u64)?;
            let (cnf, proof) = (open(cnf)?, open(proof)?);
            // Screened, the proof cannot make the checker allocate without bound; a panic
            // left in it (an index it does not check) is still the proof's failure.
            std::panic::catch_unwind(move || check_dimacs(cnf, proof))
                .unwrap_or_else(|_| {
                    Err(ProofError::Varisat("varisat's checker failed on it".into()))
                })
                .map(|()| Checked {
                    format: Format::Varisat,
                    by: "varisat's checker",
                })
        }
    }
}

/// Reads a varisat proof of `size` bytes step by step as varisat's parser does, without
/// keeping anything, and refuses it at the first step that varisat's checker could not
/// survive: an unknown step code, a list longer than the bytes left (varisat reserves a
/// list's length before reading it), a variable or literal far beyond the CNF's
/// `variables` (its tables grow to the largest seen), hash bits over 64; or no end step.
pub fn screen_varisat(proof: impl BufRead, size: u64, variables: u64) -> Result<(), ProofError> {
    let mut reader = VarisatReader {
        proof,
        read: 0,
        size,
    };
    // Variables are numbered densely from 0: one past twice the CNF's is no proof of it.
    let most_vars = 2 * variables + 64;
    for step in 1u64.. {
        let at = reader.read;
        let fail = |fault| ProofError::NotVarisat { at, step, fault };
        let var = |reader: &mut VarisatReader<_>| -> Result<(), Fault> {
            match reader.number()? {
                v if v <= most_vars => Ok(()),
                variable => Err(Fault::Variable {
                    variable,
                    variables,
                }),
            }
        };
        // A length, then per item a literal (or a hash, `literals` false) and the rest of
        // its `per_item` numbers.
        let list = |reader: &mut VarisatReader<_>, per_item: usize, literals: bool| {
            let len = reader.number()?;
            let left = reader.size - reader.read;
            if len > left {
                return Err(Fault::LongList { len, left });
            }
            for _ in 0..len {
                if reader.number()? > 2 * most_vars + 1 && literals {
                    return Err(Fault::Literal);
                }
                for _ in 1..per_item {
                    reader.number()?;
                }
            }
            Ok(())
        };
        let code = reader.number().map_err(&fail)?;
        let checked = match code {
            // Variable names: a global and a solver or user variable, or a global alone.
            0 | 2 => var(&mut reader).and_then(|()| var(&mut reader)),
            1 | 3..=6 => var(&mut reader),
            // A clause with the hashes of its propagation.
            7 | 8 | 17 => list(&mut reader, 1, true).and_then(|()| list(&mut reader, 1, false)),
            // Unit clauses: (literal, hash) pairs.
            9 => list(&mut reader, 2, true),
            10..=12 | 14..=16 => list(&mut reader, 1, true),
            13 => match reader.number() {
                Ok(bits) if bits <= 64 => Ok(()),
                Ok(bits) => Err(Fault::HashBits(bits)),
                Err(e) => Err(e),
            },
            VARISAT_END => return Ok(()),
            code => Err(Fault::UnknownCode(code)),
        };
        checked.map_err(fail)?;
    }
    unreachable!("the steps end at the end step or an error")
}

/// varisat's end-of-proof step code (a random value, so that a cut proof is not accepted).
const VARISAT_END: u64 = 0x9ac3391f4294c211;

/// varisat's numbers: the count of trailing zero bits of the first bytes (taken as a
/// little-endian number, 9 at most) plus one is the number of bytes, whose little-endian
/// value shifted right by that count is the number.
struct VarisatReader<R> {
    proof: R,
    read: u64,
    size: u64,
}

impl<R: BufRead> VarisatReader<R> {
    fn byte(&mut self) -> Result<u8, Fault> {
        let mut byte = [0];
        self.proof.read_exact(&mut byte).map_err(|_| Fault::Cut)?;
        self.read += 1;
        Ok(byte[0])
    }

    fn number(&mut self) -> Result<u64, Fault> {
        let first = self.byte()?;
        let mut bytes = vec![first];
        let len = if first != 0 {
            first.trailing_zeros() as usize + 1
        } else {
            let second = self.byte()?;
            bytes.push(second);
            ((second as u32) | 2).trailing_zeros() as usize + 9
        };
        while bytes.len() < len {
            bytes.push(self.byte()?);
        }
        let value = bytes
            .iter()
            .rev()
            .fold(0u128, |value, &b| value << 8 | b as u128);
        Ok((value >> len) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pigeonhole formula: `n + 1` pigeons, `n` holes.
    fn pigeons(n: usize) -> Formula {
        let mut f = Formula::new();
        let sits: Vec<Vec<_>> = (0..=n).map(|_| f.block(n)).collect();
        for pigeon in &sits {
            f.clause(pigeon);
        }
        for hole in 0..n {
            let in_hole: Vec<_> = sits.iter().map(|pigeon| pigeon[hole]).collect();
            for (a, &x) in in_hole.iter().enumerate() {
                for &y in &in_hole[a + 1..] {
                    f.clause(&[!x, !y]);
                }
            }
        }
        f
    }

    #[test]
    fn proofs_check_and_tampered_ones_fail() {
        let formula = pigeons(5);
        let proof = refute(&formula).expect("6 pigeons do not fit 5 holes");
        check(&formula, &proof).unwrap();
        // Cut short: the empty clause is never reached.
        assert!(check(&formula, &proof[..proof.len() / 2]).is_err());
        // A proof for another formula: 7 pigeons in 6 holes.
        let other = refute(&pigeons(6)).unwrap();
        assert!(check(&formula, &other).is_err());
        // The formula weakened (a clause dropped): the proof no longer follows.
        let mut weaker = Formula::new();
        let kept: Vec<_> = formula.cnf.iter().skip(2).cloned().collect();
        for c in kept {
            weaker.cnf.add_clause(c);
        }
        weaker.vars = formula.vars.clone();
        assert!(check(&weaker, &proof).is_err());
        // Satisfiable: no proof.
        assert_eq!(refute(&Formula::new()), None);
        // Told apart from LRAT by content.
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        let mut cnf = Vec::new();
        crate::dimacs::write_clauses(&mut cnf, &formula, &[]).unwrap();
        let cnf = write("f.cnf", &cnf);
        let check = |proof: &[u8]| {
            check_files(&cnf, &write("p", proof), Checker::Builtin).map(|c| c.format)
        };
        assert_eq!(check(&proof).unwrap(), Format::Varisat);
        let lrat = check(b"1 0 1 0\n").unwrap_err();
        assert!(matches!(lrat, ProofError::Lrat(_)), "{lrat}");
        assert!(lrat.to_string().starts_with("line 1: "), "{lrat}");
        assert!(matches!(check(b""), Err(ProofError::Empty)));
    }

    /// Corrupt varisat proofs (a byte changed anywhere, cut anywhere, control bytes that
    /// read as huge lengths or variables) are refused, never a panic or an abort; a device
    /// is no proof.
    #[test]
    fn corrupt_varisat_proofs_are_refused_without_a_crash() {
        let formula = pigeons(4);
        let proof = refute(&formula).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut cnf = Vec::new();
        crate::dimacs::write_clauses(&mut cnf, &formula, &[]).unwrap();
        let cnf_path = dir.path().join("f.cnf");
        std::fs::write(&cnf_path, &cnf).unwrap();
        let proof_path = dir.path().join("p");
        let check = |bytes: &[u8]| {
            std::fs::write(&proof_path, bytes).unwrap();
            check_files(&cnf_path, &proof_path, Checker::Both).map(|c| c.format)
        };
        assert_eq!(check(&proof).unwrap(), Format::Varisat);
        let mut hostile: Vec<Vec<u8>> = vec![
            vec![0x01; 64],
            vec![0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            vec![0x02, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            vec![0x03, 0x08],
            vec![0x1b, 0, 0xff, 0xff],
            vec![0; 4096],
        ];
        for at in (0..proof.len()).step_by(proof.len() / 97 + 1) {
            for flip in [0x01, 0x80, 0xff] {
                let mut bytes = proof.clone();
                bytes[at] ^= flip;
                hostile.push(bytes);
            }
            hostile.push(proof[..at].to_vec());
        }
        for bytes in &hostile {
            // Some changes leave a proof that still checks (a hash bit); none may crash,
            // and each refusal is the proof's (a first byte changed may make it LRAT).
            if let Err(e) = check(bytes) {
                assert!(
                    matches!(
                        e,
                        ProofError::Varisat(_)
                            | ProofError::NotVarisat { .. }
                            | ProofError::NoEmptyClause
                            | ProofError::Lrat(_)
                            | ProofError::Empty
                            | ProofError::CakeLprRejects(_)
                    ),
                    "{e}"
                );
            }
        }
        for bytes in &hostile[..6] {
            assert!(check(bytes).is_err(), "{bytes:?}");
        }
        let device = check_files(&cnf_path, "/dev/zero".as_ref(), Checker::Builtin);
        assert!(matches!(device, Err(ProofError::NotAFile(_))));
    }
}
