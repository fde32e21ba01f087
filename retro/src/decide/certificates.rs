//! A SAT "no" and its certificate: the solver's proof checked (varisat's by varisat's
//! checker, LRAT by the checker chosen), and kept where asked.

use std::path::{Path, PathBuf};
use std::time::Instant;

use satgen::proof::ProofError;
use satgen::target::Target;

/// What a checked proof adds to a certificate, and where it was kept.
pub(super) type Certified = Option<(String, Option<PathBuf>)>;

/// Checks varisat's proof of the question; with `keep`, writes KEEP.cnf and KEEP.varisat.
pub(super) fn certify_varisat(
    target: &Target,
    proof: &[u8],
    keep: Option<&Path>,
) -> Result<Certified, ProofError> {
    let start = Instant::now();
    satgen::proof::check(&target.formula, proof)?;
    let words = format!(
        "varisat proof of {} bytes checked in {:.2} s",
        proof.len(),
        start.elapsed().as_secs_f64()
    );
    let Some(keep) = keep else {
        return Ok(Some((words, None)));
    };
    let (cnf, kept) = (keep.with_extension("cnf"), keep.with_extension("varisat"));
    let failed = |path: &Path, source| ProofError::File {
        path: path.into(),
        source,
    };
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(&cnf).map_err(|e| failed(&cnf, e))?);
    satgen::dimacs::write_target(&mut file, target)
        .and_then(|()| std::io::Write::flush(&mut file))
        .map_err(|e| failed(&cnf, e))?;
    std::fs::write(&kept, proof).map_err(|e| failed(&kept, e))?;
    Ok(Some((words, Some(kept))))
}

/// Checks the LRAT proof the solver left beside the CNF; with `keep`, moves both to
/// KEEP.cnf and KEEP.lrat.
pub(super) fn certify_lrat(
    cnf: &Path,
    proof: &Path,
    keep: Option<&Path>,
    checker: satgen::proof::Checker,
) -> Result<Certified, ProofError> {
    let start = Instant::now();
    let checked = satgen::proof::check_files(cnf, proof, checker)?;
    let bytes = std::fs::metadata(proof)
        .map(|m| m.len())
        .unwrap_or_default();
    let by = match checker {
        // As the certificates said before the checker could be chosen.
        satgen::proof::Checker::Builtin => String::new(),
        _ => format!(" by {}", checked.by),
    };
    let words = format!(
        "LRAT proof of {bytes} bytes checked{by} in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let Some(keep) = keep else {
        return Ok(Some((words, None)));
    };
    let kept = keep.with_extension("lrat");
    for (from, to) in [(cnf, keep.with_extension("cnf")), (proof, kept.clone())] {
        // A rename where the scratch directory shares the file system, else a copy.
        if std::fs::rename(from, &to).is_err() {
            if let Err(source) = std::fs::copy(from, &to) {
                return Err(ProofError::File { path: to, source });
            }
        }
    }
    Ok(Some((words, Some(kept))))
}
