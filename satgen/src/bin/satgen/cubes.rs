//! `satgen cubes`: a question split into independent CNFs and a manifest, for clusters.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use engine::cli::Failure;
use satgen::{dimacs, encode, encode_target, Cube};

use crate::question::{Asked, QuestionArgs};

#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    question: QuestionArgs,
    /// Plies fixed per cube: one cube per sequence of first moves.
    /// (With --target: one cube per first move, whatever the depth.)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8),
          required_unless_present_any = ["by_ply", "target"])]
    depth: Option<u32>,
    /// One cube per ply P up to --plies instead: the position after exactly P plies has
    /// the moves (see --exact-ply). Listed from the last ply that leaves N empty squares
    /// without a pass down, then the plies that need passes.
    #[arg(long, conflicts_with = "depth")]
    by_ply: bool,
    /// Directory for the cube CNFs and manifest.txt (one line per cube: number, moves
    /// fixed or ply=P, CNF file, and the file for its proof, as in `cadical --lrat=true
    /// CNF PROOF`), e.g. for `parallel` or a Slurm array; `satgen decode` works on each
    /// cube's model, `satgen check-proof` on its proof.
    #[arg(short, long)]
    output: PathBuf,
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let dir = &args.output;
    std::fs::create_dir_all(dir).map_err(|e| Failure::Input(format!("{}: {e}", dir.display())))?;
    // Cubes of an earlier run beside the new manifest would be solved as if they were
    // part of this question (or left out of it): refuse, never mix.
    let earlier = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name == "manifest.txt" || name.starts_with("cube-")
        })
        .count();
    if earlier > 0 {
        return Err(Failure::Input(format!(
            "{}: holds {earlier} files of earlier cubes (manifest.txt, cube-*): remove them or choose another directory",
            dir.display()
        )));
    }
    let q = match args.question.asked()? {
        Asked::Mobility(q) => q,
        Asked::Target(position, cube) => return target_cubes(&position, cube, dir),
    };
    let mut manifest = String::new();
    let count = match args.depth {
        Some(depth) => {
            if depth as usize > q.plies {
                return Err(Failure::Input(format!(
                    "--depth {depth} exceeds --plies {}",
                    q.plies
                )));
            }
            let encoded = encode(&q);
            let cubes = satgen::cubes::prefixes(depth as usize, q.symmetry_break);
            for (i, prefix) in cubes.iter().enumerate() {
                let label = engine::game::format_moves(prefix);
                write_cube(dir, &mut manifest, i, &label, |out| {
                    dimacs::write(out, &q, &encoded, prefix)
                })?;
            }
            cubes.len()
        }
        None => {
            let cubes = satgen::cubes::by_ply(&q);
            for (i, cube) in cubes.iter().enumerate() {
                let label = format!("ply={}", cube.plies);
                write_cube(dir, &mut manifest, i, &label, |out| {
                    dimacs::write(out, cube, &encode(cube), &[])
                })?;
            }
            cubes.len()
        }
    };
    std::fs::write(dir.join("manifest.txt"), manifest)?;
    eprintln!("satgen: {count} cubes in {}", dir.display());
    Ok(())
}

/// Writes cube `i` into `dir` (its CNF by `write`) and its manifest line: number, label,
/// CNF file, and the file for its proof (as in `cadical --lrat=true CNF PROOF`).
fn write_cube(
    dir: &std::path::Path,
    manifest: &mut String,
    i: usize,
    label: &str,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> io::Result<()>,
) -> Result<(), Failure> {
    let name = format!("cube-{i:05}.cnf");
    let mut writer = BufWriter::new(std::fs::File::create(dir.join(&name))?);
    write(&mut writer)?;
    writer.flush()?;
    manifest.push_str(&format!("{i:05} {label} {name} cube-{i:05}.lrat\n"));
    Ok(())
}

/// A reachability question split by its first move (the squares of d3, c4, f5, e6 the
/// target occupies): one CNF each and a manifest (number, first_move=SQ, file, proof file).
fn target_cubes(
    position: &engine::Position,
    cube: Cube,
    dir: &std::path::Path,
) -> Result<(), Failure> {
    let mut manifest = String::new();
    let firsts = satgen::target::first_moves(position);
    for (i, &first) in firsts.iter().enumerate() {
        let question = encode_target(
            position,
            Cube {
                first_move: Some(first),
                ..cube
            },
        );
        write_cube(
            dir,
            &mut manifest,
            i,
            &format!("first_move={first}"),
            |out| dimacs::write_target(out, &question),
        )?;
    }
    std::fs::write(dir.join("manifest.txt"), manifest)?;
    eprintln!("satgen: {} cubes in {}", firsts.len(), dir.display());
    Ok(())
}
