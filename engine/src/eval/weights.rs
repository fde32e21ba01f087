//! The trained pattern evaluation: one weight table per game phase, the file that stores
//! it, and the weights built into the binary.
//!
//! File format (little-endian): the 8 bytes `OTHEVAL1`, then `u32` table size, `u32` number
//! of phases and `u32` scale (weights are in 1/scale discs); then per phase, the weights
//! of the table indices that `patterns::fold` keeps (the others share them), in index
//! order, as pairs of LEB128 numbers (count of zero weights before, zigzag-coded weight);
//! a pair with weight 0 gives the trailing zeros and ends the phase. Weights never seen in
//! training are zero, so this is much smaller than the plain table.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::cpu::Isa;
use crate::eval::patterns::{self, Features, INDEX_BOUND, TABLE_SIZE};
use crate::eval::Evaluation;
use crate::{isa_dispatch, isa_versions};

const MAGIC: &[u8; 8] = b"OTHEVAL1";

/// Weights are stored in 1/SCALE discs.
pub const SCALE: i32 = 128;

/// Phases by number of empty squares, 4 to a phase: 0-3, 4-7, ..., 60.
pub const PHASES: usize = 16;

/// The phase of a position with `empties` empty squares.
pub fn phase(empties: u32) -> usize {
    (empties as usize).min(60) / 4
}

/// The empties counted in `phase`.
pub fn phase_empties(phase: usize) -> std::ops::RangeInclusive<u32> {
    let lo = 4 * phase as u32;
    lo..=(lo + 3).min(60)
}

/// The weights built into the binary (see results/eval.md for how they were made).
static EMBEDDED: &[u8] = include_bytes!("../../weights/eval.bin");

/// What is wrong with a weights file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightsError {}

/// Pattern weights per phase, each table expanded to every index for fast lookup.
#[derive(Clone)]
pub struct PatternEval {
    /// `INDEX_BOUND` weights each, zero beyond `TABLE_SIZE` (see [`padded`]).
    tables: Vec<Vec<i16>>,
    /// The instruction set features are read with (detected once, not per evaluation).
    isa: Isa,
}

impl fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PatternEval({} phases)", self.tables.len())
    }
}

impl PatternEval {
    /// The weights built into the binary (decoded once, then shared).
    pub fn embedded() -> Arc<PatternEval> {
        static DECODED: OnceLock<Arc<PatternEval>> = OnceLock::new();
        DECODED
            .get_or_init(|| {
                Arc::new(PatternEval::decode(EMBEDDED).expect("the embedded weights decode"))
            })
            .clone()
    }

    /// Rounds weights in discs (`tables[phase][index]`, every index filled consistently
    /// with `patterns::fold`) to the stored precision.
    pub fn from_discs(tables: &[Vec<f32>]) -> PatternEval {
        assert_eq!(tables.len(), PHASES);
        let limit = i16::MAX as f32;
        PatternEval {
            isa: Isa::detect(),
            tables: tables
                .iter()
                .map(|t| {
                    assert_eq!(t.len(), TABLE_SIZE);
                    padded(
                        t.iter()
                            .map(|&w| (w * SCALE as f32).round().clamp(-limit, limit) as i16)
                            .collect(),
                    )
                })
                .collect(),
        }
    }

    /// The estimate in discs, at the stored precision (not rounded to hundredths).
    pub fn discs(&self, board: &Board) -> f32 {
        self.raw(board) as f32 / SCALE as f32
    }

    #[inline]
    fn raw(&self, board: &Board) -> i32 {
        self.raw_with(board, &Features::read(self.isa, board))
    }

    /// [`PatternEval::raw`] given `board`'s features.
    #[inline]
    fn raw_with(&self, board: &Board, features: &Features) -> i32 {
        let table = &self.tables[phase(board.empty_count())];
        isa_dispatch!(self.isa, weight_sum(table, board, features))
    }

    /// Adds `discs` to the constant of `phase` (what every position of the phase gets).
    pub fn shift_constant(&mut self, phase: usize, discs: f64) {
        let limit = i16::MAX as f64;
        let constant = &mut self.tables[phase][patterns::CONSTANT_OFFSET];
        *constant = (*constant as f64 + discs * SCALE as f64)
            .round()
            .clamp(-limit, limit) as i16;
    }

    /// The weights file (what `engine train` writes and `--eval FILE` reads).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [TABLE_SIZE as u32, PHASES as u32, SCALE as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for table in &self.tables {
            let mut zeros = 0u64;
            for (index, &w) in table[..TABLE_SIZE].iter().enumerate() {
                if patterns::fold(index) != index {
                    continue;
                }
                if w == 0 {
                    zeros += 1;
                } else {
                    write_leb128(&mut out, zeros);
                    write_leb128(&mut out, zigzag(w));
                    zeros = 0;
                }
            }
            write_leb128(&mut out, zeros);
            write_leb128(&mut out, 0);
        }
        out
    }

    /// The evaluation of a weights file, or what is wrong with it.
    pub fn decode(bytes: &[u8]) -> Result<PatternEval, WeightsError> {
        let err = |what: &str| WeightsError(what.to_string());
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| err("not a weights file (no OTHEVAL1 header)"))?;
        let mut reader = Reader { bytes: rest, at: 0 };
        let header: Vec<u32> = (0..3)
            .map(|_| reader.u32())
            .collect::<Option<_>>()
            .ok_or_else(|| err("truncated header"))?;
        if header != [TABLE_SIZE as u32, PHASES as u32, SCALE as u32] {
            return Err(WeightsError(format!(
                "table size, phases, scale are {header:?}; this build expects [{TABLE_SIZE}, {PHASES}, {SCALE}]"
            )));
        }
        let kept: Vec<usize> = (0..TABLE_SIZE)
            .filter(|&i| patterns::fold(i) == i)
            .collect();
        let mut tables = Vec::with_capacity(PHASES);
        for phase in 0..PHASES {
            let truncated = || WeightsError(format!("phase {phase}: truncated"));
            let mut values: Vec<i16> = Vec::with_capacity(kept.len());
            loop {
                let zeros = reader.leb128().ok_or_else(truncated)?;
                let value = reader.leb128().ok_or_else(truncated)?;
                if zeros > (kept.len() - values.len()) as u64 {
                    return Err(WeightsError(format!("phase {phase}: too many weights")));
                }
                values.extend(std::iter::repeat_n(0, zeros as usize));
                if value == 0 {
                    break;
                }
                let w = unzigzag(value)
                    .ok_or_else(|| WeightsError(format!("phase {phase}: weight out of range")))?;
                if values.len() == kept.len() {
                    return Err(WeightsError(format!("phase {phase}: too many weights")));
                }
                values.push(w);
            }
            if values.len() != kept.len() {
                return Err(WeightsError(format!(
                    "phase {phase}: {} weights, expected {}",
                    values.len(),
                    kept.len()
                )));
            }
            let table = (0..TABLE_SIZE)
                .map(|index| values[kept.binary_search(&patterns::fold(index)).unwrap()])
                .collect();
            tables.push(padded(table));
        }
        if reader.at != reader.bytes.len() {
            return Err(err("trailing bytes after the last phase"));
        }
        Ok(PatternEval {
            tables,
            isa: Isa::detect(),
        })
    }
}

impl Evaluation for PatternEval {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        self.raw(board) * 100 / SCALE
    }

    #[inline]
    fn evaluate_features(&self, board: &Board, features: &Features) -> i32 {
        self.raw_with(board, features) * 100 / SCALE
    }
}

/// A phase's table with zeros up to `INDEX_BOUND`: every index the features can give is
/// then in it, and the compiler drops the 49 bounds checks of an evaluation.
fn padded(mut table: Vec<i16>) -> Vec<i16> {
    table.resize(INDEX_BOUND, 0);
    table
}

isa_versions!(
    /// The sum of the weights in `table` of `features` (`board`'s). Compiled per
    /// instruction set for the mobility features' move generation: 20 ns more per
    /// evaluation without AVX2.
    fn weight_sum(table: &[i16], board: &Board, features: &Features) -> i32 {
        let table: &[i16; INDEX_BOUND] = table.try_into().expect("a padded table");
        let mut sum = 0;
        features.for_each_index(board, |index| sum += table[index as usize] as i32);
        sum
    }
);

fn zigzag(w: i16) -> u64 {
    ((w as i64) << 1 ^ (w as i64) >> 63) as u64
}

fn unzigzag(z: u64) -> Option<i16> {
    let w = (z >> 1) as i64 ^ -((z & 1) as i64);
    i16::try_from(w).ok()
}

fn write_leb128(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let word = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_le_bytes(word.try_into().ok()?))
    }

    fn leb128(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            n |= ((byte & 0x7f) as u64) << shift;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_tables() -> Vec<Vec<f32>> {
        (0..PHASES)
            .map(|phase| {
                (0..TABLE_SIZE)
                    .map(|i| {
                        let canonical = patterns::fold(i);
                        if canonical % 7 == 0 {
                            ((canonical % 41) as f32 - 20.0) * 0.37 + phase as f32
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn encode_and_decode_are_inverse() {
        let eval = PatternEval::from_discs(&sample_tables());
        let bytes = eval.encode();
        let back = PatternEval::decode(&bytes).unwrap();
        assert_eq!(back.tables, eval.tables);
        assert_eq!(back.encode(), bytes);
    }

    #[test]
    fn damaged_files_are_rejected() {
        let bytes = PatternEval::from_discs(&sample_tables()).encode();
        assert!(PatternEval::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(PatternEval::decode(b"OTHEVAL2").is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(PatternEval::decode(&longer).is_err());
        let mut other_scale = bytes;
        other_scale[16] = 64;
        assert!(PatternEval::decode(&other_scale)
            .unwrap_err()
            .0
            .contains("scale"));
    }

    #[test]
    fn embedded_weights_load_and_are_symmetric() {
        let eval = PatternEval::embedded();
        let board = Board::START.play(crate::Square::F5).unwrap();
        for k in 1..8 {
            assert_eq!(eval.evaluate(&board.symmetry(k)), eval.evaluate(&board));
        }
    }
}
