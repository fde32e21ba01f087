//! Squares a1..h8, numbered as in Edax: bit 0 = a1, bit 7 = h1, bit 63 = h8.

use std::fmt;
use std::str::FromStr;

use crate::error::ParseErrorKind;

/// One of the 64 squares; `index = 8 * rank + file` with file a = 0 and rank 1 = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The corner a1 (index 0).
    pub const A1: Square = Square(0);
    /// A centre square (white at the start).
    pub const D4: Square = Square(27);
    /// A centre square (black at the start).
    pub const E4: Square = Square(28);
    /// A centre square (black at the start).
    pub const D5: Square = Square(35);
    /// A centre square (white at the start).
    pub const E5: Square = Square(36);
    /// The first move the symmetry breaks fix.
    pub const F5: Square = Square(37);
    /// The corner h8 (index 63).
    pub const H8: Square = Square(63);

    /// The square with this index; `None` unless `index < 64`.
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1); both must be below 8.
    pub const fn from_coords(file: u32, rank: u32) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// Every square, a1 first and h8 last.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Its index, 0 (a1) to 63 (h8).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, 0 (a) to 7 (h).
    pub const fn file(self) -> u32 {
        self.0 as u32 % 8
    }

    /// Its rank, 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> u32 {
        self.0 as u32 / 8
    }

    /// The one-bit bitboard of this square.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The neighbouring square in direction `DIRECTIONS[d]`, if on the board.
    pub const fn step(self, d: usize) -> Option<Square> {
        let (df, dr) = DIRECTIONS[d];
        let (file, rank) = (self.file() as i32 + df, self.rank() as i32 + dr);
        if file < 0 || rank < 0 {
            return None;
        }
        Square::from_coords(file as u32, rank as u32)
    }
}

/// The eight directions as (file, rank) steps, in opposite pairs: `DIRECTIONS[d ^ 1]` is
/// the reverse of `DIRECTIONS[d]`.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file() as u8) as char;
        let rank = (b'1' + self.rank() as u8) as char;
        write!(f, "{file}{rank}")
    }
}

impl FromStr for Square {
    type Err = ParseErrorKind;

    /// Parses `a1`..`h8`, either case.
    fn from_str(s: &str) -> Result<Square, ParseErrorKind> {
        let bytes = s.as_bytes();
        if bytes.len() == 2 {
            let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
            let rank = bytes[1].wrapping_sub(b'1');
            if let Some(sq) = Square::from_coords(file as u32, rank as u32) {
                return Ok(sq);
            }
        }
        Err(ParseErrorKind::BadSquare(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_on_the_board_and_pair_up() {
        let a1: Square = "a1".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(a1.step(0), "b1".parse().ok());
        assert_eq!(a1.step(1), None);
        assert_eq!(a1.step(4), "b2".parse().ok());
        for d in 0..8 {
            assert_eq!(
                e4.step(d).and_then(|s| s.step(d ^ 1)),
                Some(e4),
                "direction {d}"
            );
        }
        assert_eq!(Square::all().filter_map(|s| s.step(6)).count(), 49);
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::A1.to_string(), "a1");
        assert_eq!(Square::H8.to_string(), "h8");
        assert_eq!(Square::new(7).unwrap().to_string(), "h1");
        assert_eq!(Square::F5.to_string(), "f5");
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "a", "a0", "a9", "i1", "1a", "a10", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!(Square::new(64), None);
    }
}
