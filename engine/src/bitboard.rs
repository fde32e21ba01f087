//! A set of squares as one `u64`, bit i = square i (a1 = bit 0, h8 = bit 63).

use std::fmt;
use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::square::Square;

/// A set of squares, bit `i` for square `i` (a1 = 0, h8 = 63); iterates its squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no square.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The lowest square in the set.
    pub fn first(self) -> Option<Square> {
        Square::new(self.0.trailing_zeros())
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Squares in increasing index order, each removed as it is returned.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        Bitboard(iter.into_iter().fold(0, |acc, sq| acc | sq.bit()))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Squares separated by spaces, as `d3 c4 f5 e6`.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, sq) in self.enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_squares_in_order() {
        let b = Bitboard(1 | 1 << 9 | 1 << 63);
        let squares: Vec<String> = b.map(|s| s.to_string()).collect();
        assert_eq!(squares, ["a1", "b2", "h8"]);
        assert_eq!(b.len(), 3);
        assert_eq!(b.collect::<Bitboard>(), b);
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(b.to_string(), "a1 b2 h8");
    }
}
