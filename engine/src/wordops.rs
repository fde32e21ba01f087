//! Move generation and the table-free flip, written once over an abstract 64-bit word.
//!
//! Both functions use only shifts by constants and and/or/not, with no table and no branch on
//! the data. Instantiated with `u64` they are the engine's move generator and the reference
//! flip; `satgen` instantiates them with words of SAT literals to bit-blast the rules into
//! CNF, so the rules it encodes are exactly the ones the engine plays by.

/// The operations the rules are written in. `u64` is the concrete word.
pub trait Word: Copy {
    /// The word of these bits.
    fn constant(value: u64) -> Self;
    /// Bitwise and.
    fn and(self, rhs: Self) -> Self;
    /// Bitwise or.
    fn or(self, rhs: Self) -> Self;
    /// Bitwise not.
    fn not(self) -> Self;
    /// Shift towards higher squares (bits shifted past h8 are lost).
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower squares (bits shifted past a1 are lost).
    fn shr(self, n: u32) -> Self;
}

impl Word for u64 {
    #[inline(always)]
    fn constant(value: u64) -> u64 {
        value
    }
    #[inline(always)]
    fn and(self, rhs: u64) -> u64 {
        self & rhs
    }
    #[inline(always)]
    fn or(self, rhs: u64) -> u64 {
        self | rhs
    }
    #[inline(always)]
    fn not(self) -> u64 {
        !self
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u64 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u64 {
        self >> n
    }
}

/// Every square but the a and h files: a horizontal or diagonal step from these cannot wrap
/// around to the next rank.
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four line directions as bit distances, each with the opponent mask that stops a run
/// from wrapping around the board edge.
const AXES: [(u32, u64); 4] = [
    (1, INNER_FILES),
    (8, !0),
    (7, INNER_FILES),
    (9, INNER_FILES),
];

/// Squares where the side with discs `p` may move against discs `o`: empty squares from which
/// a run of `o` discs, in some direction, ends on a `p` disc.
#[inline(always)]
pub fn moves<W: Word>(p: W, o: W) -> W {
    let mut moves = W::constant(0);
    for (dir, edge) in AXES {
        let o = o.and(W::constant(edge));
        // Runs of o discs reached from p, walking up (l) and down (r). The second half uses
        // pairs of o discs to advance two squares at a time (6 o discs at most in a line).
        let mut l = o.and(p.shl(dir));
        let mut r = o.and(p.shr(dir));
        l = l.or(o.and(l.shl(dir)));
        r = r.or(o.and(r.shr(dir)));
        let pair_l = o.and(o.shl(dir));
        let pair_r = pair_l.shr(dir);
        for _ in 0..2 {
            l = l.or(pair_l.and(l.shl(2 * dir)));
            r = r.or(pair_r.and(r.shr(2 * dir)));
        }
        moves = moves.or(l.shl(dir)).or(r.shr(dir));
    }
    moves.and(p.or(o).not())
}

/// The discs flipped when the side with discs `p` plays the one-bit move `m` against `o`
/// (zero when `m` is zero or flips nothing). Table-free: in each direction, the run of `o`
/// discs walked from `m` is kept where it meets the run walked back from `p` discs.
#[inline(always)]
pub fn flip<W: Word>(m: W, p: W, o: W) -> W {
    let mut flipped = W::constant(0);
    for (dir, edge) in AXES {
        let o = o.and(W::constant(edge));
        let (mut up_from_m, mut down_from_p) = (o.and(m.shl(dir)), o.and(p.shr(dir)));
        let (mut down_from_m, mut up_from_p) = (o.and(m.shr(dir)), o.and(p.shl(dir)));
        for _ in 0..5 {
            up_from_m = up_from_m.or(o.and(up_from_m.shl(dir)));
            down_from_p = down_from_p.or(o.and(down_from_p.shr(dir)));
            down_from_m = down_from_m.or(o.and(down_from_m.shr(dir)));
            up_from_p = up_from_p.or(o.and(up_from_p.shl(dir)));
        }
        flipped = flipped
            .or(up_from_m.and(down_from_p))
            .or(down_from_m.and(up_from_p));
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn start_position_moves() {
        let (black, white) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        // d3 c4 f5 e6
        assert_eq!(moves(black, white), 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
    }

    #[test]
    fn flips_long_runs_and_not_across_edges() {
        // a1 plays, b1..g1 opponent, h1 player: six flips along the rank.
        let (p, o) = (1u64 << 7, 0x7e);
        assert_eq!(flip(1, p, o), 0x7e);
        // the h1 player disc does not bracket the a2..: no wrap from h1 to a2.
        let (p, o) = (1u64 << 7, 1u64 << 8);
        assert_eq!(flip(1 << 9, p, o), 0);
        // diagonal a1-h8 with opponent b2..g7, player h8.
        let diag = 0x8040_2010_0804_0201u64;
        let o = diag & !1 & !(1 << 63);
        assert_eq!(flip(1, 1 << 63, o), o);
        assert_eq!(flip(1, 0, o), 0);
        assert_eq!(flip(0, 1 << 63, o), 0);
    }

    #[test]
    fn agrees_with_reference_on_dense_patterns() {
        // A few fixed dense boards, every empty square.
        let boards = [
            (0x0000_0018_1000_0000u64, 0x0000_0000_0818_0000u64),
            (
                0x8100_0000_0000_0081,
                0x7e7e_7e7e_7e7e_7e7e & !0x0000_0018_1800_0000,
            ),
            (0x0055_0055_0055_0000, 0x00aa_00aa_00aa_0000),
        ];
        for (p, o) in boards {
            let empties = !(p | o);
            for sq in 0..64 {
                if empties >> sq & 1 == 1 {
                    let expected = reference::flips(p, o, sq);
                    assert_eq!(flip(1 << sq, p, o), expected, "sq {sq}");
                }
            }
            assert_eq!(moves(p, o), reference::moves(p, o));
        }
    }
}
