//! DIMACS CNF with a header naming where the game's variables live, and solver output
//! (`s`/`v` lines) read back as a model.

use std::io::{self, Write};

use engine::{Move, Position};
use rustsat::types::Lit;

use crate::encode::{Encoded, Layout, Question, SideFilter};
use crate::formula::Formula;
use crate::target::{Target, TargetLayout};

/// Writes `encoded` as DIMACS: comment lines with the question and the layout (the first
/// variable of each ply's black, white and move blocks), then `p cnf` and the clauses; a
/// cube's first moves (`prefix`) are added as unit clauses on the move variables.
pub fn write(
    out: &mut impl Write,
    q: &Question,
    encoded: &Encoded,
    prefix: &[Move],
) -> io::Result<()> {
    let f = &encoded.formula;
    let units: Vec<Lit> = prefix
        .iter()
        .enumerate()
        .map(|(ply, mv)| encoded.layout.moves[ply][move_index(*mv)])
        .collect();
    writeln!(
        out,
        "c satgen encoding={} plies={} mobility={} side={:?} symmetry_break={} exact_ply={}",
        q.encoding.name(),
        q.plies,
        q.mobility,
        q.side,
        q.symmetry_break,
        q.exact_ply
    )?;
    let l = &encoded.layout;
    for i in 0..l.black.len() {
        let first = |block: &Vec<Vec<Lit>>| block.get(i).map_or(0, |b| b[0].var().idx() + 1);
        writeln!(
            out,
            "c satgen-layout ply={i} black={} white={} moves={}",
            first(&l.black),
            first(&l.white),
            first(&l.moves)
        )?;
    }
    if !prefix.is_empty() {
        writeln!(
            out,
            "c satgen-cube moves={}",
            engine::game::format_moves(prefix)
        )?;
    }
    write_clauses(out, f, &units)
}

/// Writes a reachability question ([`crate::target`]) as DIMACS: comment lines with the
/// target (an OBF line), the first move if fixed, and per step the variable of each square
/// that may be played there; then `p cnf` and the clauses.
pub fn write_target(out: &mut impl Write, question: &Target) -> io::Result<()> {
    let layout = &question.layout;
    writeln!(
        out,
        "c satgen target={}",
        engine::Obf::new(layout.target)
            .to_string()
            .replace(' ', "_")
    )?;
    if let Some(first) = question.cube.first_move {
        writeln!(out, "c satgen-cube first_move={first}")?;
    }
    if question.cube.single_pass_before.is_none() && question.cube.no_passes_before > 0 {
        let before = question
            .cube
            .no_passes_before
            .min(question.layout.moves.len());
        writeln!(out, "c satgen-cube no_passes_before={before}")?;
    }
    if let Some(step) = question.cube.single_pass_before {
        writeln!(out, "c satgen-cube single_pass_before={step}")?;
    }
    for (j, candidates) in layout.moves.iter().enumerate() {
        let squares: Vec<String> = candidates
            .iter()
            .map(|(sq, l)| format!("{sq}={}", l.var().idx() + 1))
            .collect();
        writeln!(out, "c satgen-step {j} {}", squares.join(" "))?;
    }
    write_clauses(out, &question.formula, &[])
}

/// Writes the flip accounting of `target` ([`crate::accounting`]) as DIMACS, the target in
/// a comment line.
pub fn write_accounting(out: &mut impl Write, target: &Position, f: &Formula) -> io::Result<()> {
    writeln!(
        out,
        "c satgen accounting target={}",
        engine::Obf::new(*target).to_string().replace(' ', "_")
    )?;
    write_clauses(out, f, &[])
}

/// The `p cnf` line and the clauses, then `units` as unit clauses.
pub fn write_clauses(out: &mut impl Write, f: &Formula, units: &[Lit]) -> io::Result<()> {
    writeln!(out, "p cnf {} {}", f.variables(), f.clauses() + units.len())?;
    let mut line = String::new();
    for clause in f.cnf.iter() {
        line.clear();
        for lit in clause.iter() {
            line.push_str(&lit.to_ipasir().to_string());
            line.push(' ');
        }
        line.push('0');
        writeln!(out, "{line}")?;
    }
    for unit in units {
        writeln!(out, "{} 0", unit.to_ipasir())?;
    }
    Ok(())
}

/// The layout of a reachability question from a header written by [`write_target`], or
/// `None` if the file holds another kind of question.
pub fn read_target_layout(text: &str) -> Result<Option<TargetLayout>, FormatError> {
    let mut target = None;
    let mut moves = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |problem: String| FormatError {
            line: n + 1,
            problem,
        };
        if line.starts_with('p') {
            break;
        }
        if let Some(obf) = line.strip_prefix("c satgen target=") {
            let obf = engine::Obf::parse(&obf.replace('_', " "))
                .map_err(|(_, kind)| bad(format!("target: {kind}")))?;
            target = Some(obf.position);
        } else if let Some(rest) = line.strip_prefix("c satgen-step ") {
            let mut words = rest.split_whitespace();
            let step: usize = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| bad("no step number".into()))?;
            if step != moves.len() {
                return Err(bad(format!("step {step} out of order")));
            }
            let candidates = words
                .map(|kv| {
                    let (sq, var) = kv.split_once('=').ok_or_else(|| bad(format!("{kv:?}")))?;
                    let sq: engine::Square = sq.parse().map_err(|_| bad(format!("{sq:?}")))?;
                    let var: u32 = var
                        .parse()
                        .ok()
                        .filter(|&v| v > 0)
                        .ok_or_else(|| bad(format!("{var:?} is not a variable")))?;
                    Ok((sq, Lit::positive(var - 1)))
                })
                .collect::<Result<Vec<_>, FormatError>>()?;
            moves.push(candidates);
        }
    }
    Ok(target.map(|target| TargetLayout { target, moves }))
}

/// The index of a move in a ply's move block: the square, or 64 for the pass.
pub fn move_index(mv: Move) -> usize {
    match mv {
        Move::Pass => 64,
        Move::Play(sq) => sq.index(),
    }
}

/// Why a file does not describe a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", line_prefix(*.line))]
pub struct FormatError {
    /// The line to blame (from 1), or 0 when the file as a whole lacks something.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

impl FormatError {
    /// The error as `FILE:LINE: problem`, or `FILE: problem` for the file as a whole.
    pub fn located(&self, file: &std::path::Path) -> String {
        match self.line {
            0 => format!("{}: {}", file.display(), self.problem),
            line => format!("{}:{line}: {}", file.display(), self.problem),
        }
    }
}

fn line_prefix(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("{line}: ")
    }
}

/// The mobility and side asked, from the first line of a header written by [`write`](fn@write).
pub fn read_target(text: &str) -> Result<(u32, SideFilter), FormatError> {
    let bad = |problem: &str| FormatError {
        line: 1,
        problem: problem.to_string(),
    };
    let first = text.lines().next().unwrap_or("");
    let field = |name: &str| {
        first
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    let mobility = field("mobility")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| bad("no mobility= in the satgen header"))?;
    let side = match field("side") {
        Some("Any") => SideFilter::Any,
        Some("Black") => SideFilter::Black,
        Some("White") => SideFilter::White,
        _ => return Err(bad("no side=Any|Black|White in the satgen header")),
    };
    Ok((mobility, side))
}

/// The layout named in a DIMACS header written by [`write`](fn@write).
pub fn read_layout(text: &str) -> Result<Layout, FormatError> {
    let mut layout = Layout::default();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("c satgen-layout ") else {
            if line.starts_with('p') {
                break;
            }
            continue;
        };
        let bad = |problem: &str| FormatError {
            line: n + 1,
            problem: problem.to_string(),
        };
        let field = |name: &str| -> Result<u32, FormatError> {
            rest.split_whitespace()
                .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
                .ok_or_else(|| bad(&format!("no {name}=")))?
                .parse()
                .map_err(|_| bad(&format!("{name} is not a number")))
        };
        let block = |first: u32, len: u32| {
            (first..first + len)
                .map(|v| Lit::positive(v - 1))
                .collect::<Vec<_>>()
        };
        let (black, white, moves) = (field("black")?, field("white")?, field("moves")?);
        if black == 0 || white == 0 {
            return Err(bad("board blocks start at variable 1 or later"));
        }
        layout.black.push(block(black, 64));
        layout.white.push(block(white, 64));
        if moves != 0 {
            layout.moves.push(block(moves, 65));
        }
    }
    if layout.black.is_empty() {
        return Err(FormatError {
            line: 0,
            problem: "no satgen-layout lines: not written by satgen emit".into(),
        });
    }
    Ok(layout)
}

/// The comment lines before a DIMACS file's `p cnf` line, and what that line declares:
/// all a reader of a model or a proof needs, read without the clauses.
#[derive(Debug)]
pub struct Header {
    /// The lines before `p cnf`, each ending with a newline.
    pub comments: String,
    /// Variables declared.
    pub variables: usize,
    /// Clauses declared.
    pub clauses: usize,
}

/// Reads a DIMACS file up to its `p cnf` line, a line at a time (a line over 1 MiB is an
/// error naming it, so that a binary file stops at once).
pub fn read_header(mut reader: impl io::BufRead) -> Result<Header, FormatError> {
    use std::io::{BufRead, Read};
    let mut comments = String::new();
    let mut bytes = Vec::new();
    for n in 1.. {
        let bad = |problem: String| FormatError { line: n, problem };
        bytes.clear();
        let read = (&mut reader)
            .take(engine::obf::MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| bad(e.to_string()))?;
        if read == 0 {
            break;
        }
        if bytes.len() > engine::obf::MAX_LINE_BYTES {
            return Err(bad("a line longer than 1 MiB: not DIMACS".into()));
        }
        let line = std::str::from_utf8(&bytes).map_err(|_| bad("not UTF-8 text".into()))?;
        let Some(declared) = line.trim().strip_prefix("p ") else {
            comments.push_str(line.trim_end());
            comments.push('\n');
            continue;
        };
        let fields: Vec<&str> = declared.split_whitespace().collect();
        let [format, variables, clauses] = fields[..] else {
            return Err(bad(format!(
                "{:?} is not `p cnf VARIABLES CLAUSES`",
                line.trim()
            )));
        };
        let number = |text: &str| {
            text.parse()
                .map_err(|_| bad(format!("{text:?} is not a count")))
        };
        if format != "cnf" {
            return Err(bad(format!("format {format:?}, not cnf")));
        }
        return Ok(Header {
            comments,
            variables: number(variables)?,
            clauses: number(clauses)?,
        });
    }
    Err(FormatError {
        line: 0,
        problem: "no `p cnf` line: not DIMACS".into(),
    })
}

/// Solver output of a formula of `variables` variables, read with a cap ([`read_model`]):
/// a file larger than such a model can be (statistics included) is refused rather than
/// read whole.
pub fn read_model_from(
    reader: impl io::Read,
    variables: usize,
) -> Result<Option<Vec<bool>>, FormatError> {
    use std::io::Read;
    // A literal is at most 11 characters and a space; the rest is lines of comments.
    let cap = (1u64 << 20) + 12 * variables as u64;
    let mut text = String::new();
    reader
        .take(cap + 1)
        .read_to_string(&mut text)
        .map_err(|e| FormatError {
            line: 0,
            problem: e.to_string(),
        })?;
    if text.len() as u64 > cap {
        return Err(FormatError {
            line: 0,
            problem: format!(
                "over {cap} bytes: longer than a model of {variables} variables can be"
            ),
        });
    }
    read_model(&text, variables)
}

/// The verdict and true variables of solver output: `s SATISFIABLE` / `s UNSATISFIABLE`
/// and `v` lines (or, without `s`, bare integers), for a formula of `variables` variables
/// (a literal beyond them is an error, not a table grown to it).
pub fn read_model(text: &str, variables: usize) -> Result<Option<Vec<bool>>, FormatError> {
    let mut values = Vec::new();
    let mut satisfiable = None;
    for (n, line) in text.lines().enumerate() {
        let bad = |problem: String| FormatError {
            line: n + 1,
            problem,
        };
        let line = line.trim();
        if let Some(verdict) = line.strip_prefix("s ") {
            satisfiable = Some(match verdict.trim() {
                "SATISFIABLE" => true,
                "UNSATISFIABLE" => false,
                other => return Err(bad(format!("unknown verdict {other:?}"))),
            });
            continue;
        }
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let numbers = line.strip_prefix("v ").unwrap_or(line);
        for word in numbers.split_whitespace() {
            let value: i64 = word
                .parse()
                .map_err(|_| bad(format!("{word:?} is not a literal")))?;
            if value == 0 {
                continue;
            }
            if value.unsigned_abs() > variables as u64 {
                return Err(bad(format!(
                    "literal {value}, beyond the formula's {variables} variables"
                )));
            }
            let var = value.unsigned_abs() as usize - 1;
            if values.len() <= var {
                values.resize(var + 1, false);
            }
            values[var] = value > 0;
        }
    }
    match satisfiable {
        Some(false) => Ok(None),
        _ if values.is_empty() => Err(FormatError {
            line: 0,
            problem: "no model".into(),
        }),
        _ => Ok(Some(values)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_line_or_the_whole_file() {
        let file = std::path::Path::new("m.out");
        let none = read_model("c nothing here\n", 2).unwrap_err();
        assert_eq!(none.to_string(), "no model");
        assert_eq!(none.located(file), "m.out: no model");
        let bad = read_model("s SATISFIABLE\nv 1 -2\nv x 0\n", 2).unwrap_err();
        assert_eq!(bad.located(file), "m.out:3: \"x\" is not a literal");
        assert_eq!(
            read_model("s SATISFIABLE\nv 1 -2 0\n", 2),
            Ok(Some(vec![true, false]))
        );
    }

    /// A literal beyond the formula's variables, however large, is an error of its line,
    /// not a table grown to it; output longer than a model can be is refused unread.
    #[test]
    fn models_are_bounded_by_the_formula() {
        for huge in [
            "3",
            "-2000000000",
            "9223372036854775807",
            "-9223372036854775808",
        ] {
            let text = format!("s SATISFIABLE\nv 1 {huge} 0\n");
            let error = read_model(&text, 2).unwrap_err();
            assert_eq!(error.line, 2, "{huge}");
            assert!(
                error.problem.contains("beyond the formula's 2 variables"),
                "{error}"
            );
        }
        let long = "c ".repeat(1 << 20);
        let error = read_model_from(long.as_bytes(), 10).unwrap_err();
        assert!(error.problem.contains("longer than a model"), "{error}");
        assert_eq!(
            read_model_from(&b"s SATISFIABLE\nv -1 2 0\n"[..], 2),
            Ok(Some(vec![false, true]))
        );
    }

    #[test]
    fn headers_are_read_without_the_clauses() {
        let header = read_header(&b"c one\nc two\np cnf 12 34\n1 2 0\n"[..]).unwrap();
        assert_eq!((header.variables, header.clauses), (12, 34));
        assert_eq!(header.comments, "c one\nc two\n");
        for (text, line) in [("c x\np cnf x 1\n", 2), ("p dnf 1 1\n", 1), ("c only\n", 0)] {
            assert_eq!(
                read_header(text.as_bytes()).unwrap_err().line,
                line,
                "{text}"
            );
        }
        let binary = vec![b'c'; (1 << 20) + 10];
        assert!(read_header(&binary[..])
            .unwrap_err()
            .problem
            .contains("1 MiB"));
    }

    #[test]
    fn target_is_read_from_the_header_line() {
        let header = "c satgen encoding=rays plies=42 mobility=33 side=White symmetry_break=true\n";
        assert_eq!(read_target(header), Ok((33, SideFilter::White)));
        let error = read_target("c satgen encoding=rays plies=42 side=Any\n").unwrap_err();
        assert_eq!(error.to_string(), "1: no mobility= in the satgen header");
        assert!(read_target("p cnf 1 1\n").is_err());
    }
}
