//! The "wordops" encoding's words: 64 literals standing for a bitboard, so that the core's
//! table-free move generation and flip (`engine::wordops`, the code the engine plays by)
//! run on them and leave behind, gate by gate, the CNF of the rules (the approach of the
//! published CNF, which bit-blasted word operations by hand).

use std::cell::RefCell;

use engine::wordops::Word;
use rustsat::types::Lit;

use crate::formula::{Formula, FALSE};

/// A word of literals; the gates its operations create go into `formula`. A word of
/// constants (from [`Word::constant`]) has no formula until combined with one that does.
#[derive(Clone, Copy)]
pub struct LitWord<'a> {
    formula: Option<&'a RefCell<Formula>>,
    /// One literal per square (a1 = bit 0).
    pub bits: [Lit; 64],
}

impl<'a> LitWord<'a> {
    /// The word of `bits` (64 of them), its gates going into `formula`.
    pub fn new(formula: &'a RefCell<Formula>, bits: &[Lit]) -> LitWord<'a> {
        LitWord {
            formula: Some(formula),
            bits: bits.try_into().expect("64 literals"),
        }
    }

    /// Bitwise AND (`and`) or OR, folding constants.
    fn combine(self, rhs: Self, and: bool) -> Self {
        let formula = self.formula.or(rhs.formula);
        let mut bits = [FALSE; 64];
        for (i, bit) in bits.iter_mut().enumerate() {
            let pair = [self.bits[i], rhs.bits[i]];
            *bit = match (formula, and) {
                (Some(f), true) => f.borrow_mut().and(&pair),
                (Some(f), false) => f.borrow_mut().or(&pair),
                // Two constants (words without a formula hold nothing else).
                (None, true) => constant(pair.iter().all(|&l| l == !FALSE)),
                (None, false) => constant(pair.iter().any(|&l| l == !FALSE)),
            };
        }
        LitWord { formula, bits }
    }

    /// The word shifted by `n` squares (`up`: towards h8), constant false shifted in.
    fn shift(self, n: u32, up: bool) -> Self {
        let mut bits = [FALSE; 64];
        for (i, bit) in bits.iter_mut().enumerate() {
            let from = if up {
                i.checked_sub(n as usize)
            } else {
                Some(i + n as usize).filter(|&j| j < 64)
            };
            if let Some(j) = from {
                *bit = self.bits[j];
            }
        }
        LitWord { bits, ..self }
    }
}

fn constant(value: bool) -> Lit {
    if value {
        !FALSE
    } else {
        FALSE
    }
}

impl Word for LitWord<'_> {
    fn constant(value: u64) -> Self {
        LitWord {
            formula: None,
            bits: std::array::from_fn(|i| constant(value >> i & 1 == 1)),
        }
    }
    fn and(self, rhs: Self) -> Self {
        self.combine(rhs, true)
    }
    fn or(self, rhs: Self) -> Self {
        self.combine(rhs, false)
    }
    fn not(self) -> Self {
        LitWord {
            bits: self.bits.map(|l| !l),
            ..self
        }
    }
    fn shl(self, n: u32) -> Self {
        self.shift(n, true)
    }
    fn shr(self, n: u32) -> Self {
        self.shift(n, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::SmallRng, RngExt, SeedableRng};

    /// On words of constants every gate folds: the words must come out as the core's `u64`
    /// results, with no variable created.
    #[test]
    fn constant_words_fold_to_the_core_results() {
        let formula = RefCell::new(Formula::new());
        let mut rng = SmallRng::seed_from_u64(3);
        let word = |x: u64| LitWord {
            formula: Some(&formula),
            ..LitWord::constant(x)
        };
        let value = |w: LitWord| {
            w.bits.iter().enumerate().fold(0u64, |acc, (i, &l)| {
                assert!(l == FALSE || l == !FALSE, "bit {i} is not constant");
                acc | ((l == !FALSE) as u64) << i
            })
        };
        for _ in 0..200 {
            let occupied = rng.random::<u64>() | rng.random::<u64>();
            let p = occupied & rng.random::<u64>();
            let o = occupied & !p;
            let moves = engine::wordops::moves(p, o);
            assert_eq!(value(engine::wordops::moves(word(p), word(o))), moves);
            for sq in engine::Bitboard(moves) {
                let m = sq.bit();
                let flipped = engine::wordops::flip(word(m), word(p), word(o));
                assert_eq!(value(flipped), engine::wordops::flip(m, p, o));
            }
        }
        assert_eq!(formula.borrow().variables(), 1, "only the false literal");
    }
}
