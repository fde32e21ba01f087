//! The features of the trained evaluation, as in Logistello and Edax: groups of squares
//! (edges with their X-squares, corners, lines, diagonals) whose contents, read as a
//! base-3 number (0 empty, 1 side to move, 2 opponent), index a table of weights shared by
//! every symmetric copy of the group; then the mobility of each side and a constant.
//!
//! Each pattern is written once, in one orientation; its copies elsewhere on the board are
//! the squares the board symmetries (`Board::symmetry`) map onto it, found at compile time.
//! A copy that some symmetry maps onto itself (the edge under the a<->h mirror, say) is read
//! once, and the weights of the two readings it could have are tied ([`fold`]), so the
//! evaluation of symmetric boards is equal.
//!
//! Reading a copy is one `pext` per side (its squares in ascending order) and a table that
//! turns those bits into base-3 place values in the pattern's digit order: no symmetric
//! image of the board is built.

use std::sync::OnceLock;

use crate::board::{symmetry, Board};
use crate::cpu::Isa;

/// One pattern: the squares read, digit `i` of the index being `squares[i]`.
pub struct Pattern {
    /// The squares it reads, the first the lowest digit.
    pub squares: &'static [u8],
}

/// The patterns (square indices: a1 = 0, h1 = 7, a2 = 8).
pub const PATTERNS: [Pattern; 11] = [
    // edge+2X
    Pattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    // corner 3x3
    Pattern {
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    // corner 2x5
    Pattern {
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    // line 2
    Pattern {
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    // line 3
    Pattern {
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    // line 4
    Pattern {
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    // diagonal 8
    Pattern {
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    // diagonal 7
    Pattern {
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    // diagonal 6
    Pattern {
        squares: &[2, 11, 20, 29, 38, 47],
    },
    // diagonal 5
    Pattern {
        squares: &[3, 12, 21, 30, 39],
    },
    // diagonal 4
    Pattern {
        squares: &[4, 13, 22, 31],
    },
];

/// Mobility is counted up to this (33 is the most any reachable position has; beyond 31
/// the data is too thin to weigh).
pub const MOBILITY_CAP: usize = 31;

/// Features read from one board: one per pattern copy, two mobilities, the constant.
pub const FEATURE_COUNT: usize = COPY_COUNT + 3;

/// Where each pattern's weights start in a phase's table, then the mobility tables and
/// the constant; `TABLE_SIZE` weights in all.
pub const OFFSETS: [usize; 11] = offsets();
/// Where the mobility weights start (both sides' counts, capped).
pub const MOBILITY_OFFSET: usize = OFFSETS[10] + 81;
/// Where the constant weight is.
pub const CONSTANT_OFFSET: usize = MOBILITY_OFFSET + 2 * (MOBILITY_CAP + 1);
/// Weights in a phase's table.
pub const TABLE_SIZE: usize = CONSTANT_OFFSET + 1;

/// Above every index [`Features::for_each_index`] gives, whatever the features hold (a
/// pattern offset plus a `u16`).
pub const INDEX_BOUND: usize = OFFSETS[10] + u16::MAX as usize + 1;
const _: () = assert!(INDEX_BOUND > TABLE_SIZE);

const fn offsets() -> [usize; 11] {
    let mut offsets = [0; 11];
    let mut p = 1;
    while p < 11 {
        offsets[p] = offsets[p - 1] + 3usize.pow(PATTERNS[p - 1].squares.len() as u32);
        p += 1;
    }
    offsets
}

/// `PREIMAGE[k][s]`: the square of the board that, under symmetry `k`, lands on square
/// `s` (what a pattern digit on `s` reads in the copy seen through symmetry `k`).
const PREIMAGE: [[u8; 64]; 8] = {
    let mut preimage = [[0u8; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut t = 0;
        while t < 64 {
            preimage[k][symmetry(1 << t, k as u32).trailing_zeros() as usize] = t as u8;
            t += 1;
        }
        k += 1;
    }
    preimage
};

const fn preimage(s: u8, k: u32) -> u32 {
    PREIMAGE[k as usize][s as usize] as u32
}

/// The squares that copy `k` of pattern `p` reads, as a mask.
const fn copy_mask(p: usize, k: u32) -> u64 {
    let squares = PATTERNS[p].squares;
    let mut mask = 0u64;
    let mut i = 0;
    while i < squares.len() {
        mask |= 1 << preimage(squares[i], k);
        i += 1;
    }
    mask
}

/// Copies of the patterns on the board, one per pattern and per distinct set of squares
/// (a symmetry mapping a copy onto itself reads it once).
pub const COPY_COUNT: usize = 46;

/// (pattern, symmetry) of each copy, by pattern then symmetry.
const COPY_SYMMETRIES: [(usize, u32); COPY_COUNT] = {
    let mut copies = [(0, 0); COPY_COUNT];
    let mut n = 0;
    let mut p = 0;
    while p < PATTERNS.len() {
        let mut k = 0;
        while k < 8 {
            let mut seen = false;
            let mut earlier = 0;
            while earlier < k {
                seen |= copy_mask(p, earlier) == copy_mask(p, k);
                earlier += 1;
            }
            if !seen {
                copies[n] = (p, k);
                n += 1;
            }
            k += 1;
        }
        p += 1;
    }
    assert!(n == COPY_COUNT);
    copies
};

/// For each copy, the pattern digit of each of its squares taken in ascending order (the
/// order in which `pext` extracts them).
const DIGIT_ORDERS: [[u8; 10]; COPY_COUNT] = {
    let mut orders = [[0u8; 10]; COPY_COUNT];
    let mut c = 0;
    while c < COPY_COUNT {
        let (p, k) = COPY_SYMMETRIES[c];
        let squares = PATTERNS[p].squares;
        let mask = copy_mask(p, k);
        let mut i = 0;
        while i < squares.len() {
            // The rank of this digit's square among the copy's squares.
            let rank = (mask & ((1u64 << preimage(squares[i], k)) - 1)).count_ones();
            orders[c][rank as usize] = i as u8;
            i += 1;
        }
        c += 1;
    }
    orders
};

/// The first copy whose squares come in the same digit order as copy `c`'s (and so can
/// share its table of place values).
const fn table_owner(c: usize) -> usize {
    let len = PATTERNS[COPY_SYMMETRIES[c].0].squares.len();
    let mut owner = 0;
    loop {
        let mut same = PATTERNS[COPY_SYMMETRIES[owner].0].squares.len() == len;
        let mut i = 0;
        while i < len {
            same &= DIGIT_ORDERS[owner][i] == DIGIT_ORDERS[c][i];
            i += 1;
        }
        if same {
            return owner;
        }
        owner += 1;
    }
}

/// Per copy: where its pattern's weights start, its squares, and where its place values
/// start in [`PLACES`].
#[derive(Clone, Copy)]
struct PatternCopy {
    offset: u32,
    mask: u64,
    places: usize,
}

/// The copies, and the length of [`PLACES`].
const COPIES_AND_PLACES_LEN: ([PatternCopy; COPY_COUNT], usize) = {
    let mut copies = [PatternCopy {
        offset: 0,
        mask: 0,
        places: 0,
    }; COPY_COUNT];
    let mut len = 0;
    let mut c = 0;
    while c < COPY_COUNT {
        let (p, k) = COPY_SYMMETRIES[c];
        let owner = table_owner(c);
        let places = if owner == c {
            len += 1 << PATTERNS[p].squares.len();
            len - (1 << PATTERNS[p].squares.len())
        } else {
            copies[owner].places
        };
        copies[c] = PatternCopy {
            offset: OFFSETS[p] as u32,
            mask: copy_mask(p, k),
            places,
        };
        c += 1;
    }
    (copies, len)
};
const COPIES: [PatternCopy; COPY_COUNT] = COPIES_AND_PLACES_LEN.0;

/// Place values: `PLACES[copy.places + b]` is the pattern index of the copy with digit 1
/// on the squares whose bits are set in `b` (the copy's squares in ascending order) and 0
/// elsewhere; the index of a board is then `PLACES[.. + player bits] + 2 * PLACES[.. +
/// opponent bits]`.
static PLACES: [u16; COPIES_AND_PLACES_LEN.1] = {
    let mut places = [0u16; COPIES_AND_PLACES_LEN.1];
    let mut c = 0;
    while c < COPY_COUNT {
        if table_owner(c) == c {
            let order = DIGIT_ORDERS[c];
            let len = PATTERNS[COPY_SYMMETRIES[c].0].squares.len();
            let mut b = 0;
            while b < 1 << len {
                let mut value = 0u32;
                let mut j = 0;
                while j < len {
                    if b >> j & 1 != 0 {
                        value += 3u32.pow(order[j] as u32);
                    }
                    j += 1;
                }
                places[COPIES[c].places + b] = value as u16;
                b += 1;
            }
        }
        c += 1;
    }
    places
};

/// Per table index, the least index whose weight it shares: symmetries mapping a pattern
/// onto itself permute its digits, and the permuted indices are tied.
fn fold_table() -> &'static [u32] {
    static FOLD: OnceLock<Vec<u32>> = OnceLock::new();
    FOLD.get_or_init(|| {
        let mut fold: Vec<u32> = (0..TABLE_SIZE as u32).collect();
        for (p, pattern) in PATTERNS.iter().enumerate() {
            // copy(k)[i]: the square that the board under symmetry k has at squares[i].
            let copy =
                |k: u32| -> Vec<u32> { pattern.squares.iter().map(|&s| preimage(s, k)).collect() };
            let own = copy(0);
            let permutations: Vec<Vec<usize>> = (1..8)
                .map(copy)
                .filter(|c| c.iter().all(|s| own.contains(s)) && *c != own)
                .map(|c| {
                    c.iter()
                        .map(|s| own.iter().position(|t| t == s).unwrap())
                        .collect()
                })
                .collect();
            let n = pattern.squares.len();
            for index in 0..3usize.pow(n as u32) {
                let digits: Vec<usize> = (0..n).map(|i| index / 3usize.pow(i as u32) % 3).collect();
                let least = permutations
                    .iter()
                    .map(|perm| (0..n).map(|i| digits[perm[i]] * 3usize.pow(i as u32)).sum())
                    .fold(index, usize::min);
                fold[OFFSETS[p] + index] = (OFFSETS[p] + least) as u32;
            }
        }
        fold
    })
}

/// The table index whose weight `index` shares (itself if none is smaller).
pub fn fold(index: usize) -> usize {
    fold_table()[index] as usize
}

/// The table indices of the features of `board`.
pub fn features(board: &Board) -> [u32; FEATURE_COUNT] {
    let mut out = [0u32; FEATURE_COUNT];
    let mut n = 0;
    for_each_feature(Isa::detect(), board, |index| {
        out[n] = index;
        n += 1;
    });
    out
}

/// Calls `f` with the table index of each feature of `board` (in the order of
/// [`features`]), read with the instructions of `isa`, which must be one this CPU runs.
#[inline]
pub(crate) fn for_each_feature(isa: Isa, board: &Board, f: impl FnMut(u32)) {
    Features::read(isa, board).for_each_index(board, f);
}

/// Lanes of a [`Features`] view: the copies, padded to whole 256-bit words.
const LANES: usize = 48;

/// The pattern indices of a position (each copy's base-3 number, without its pattern's
/// table offset) as the side to move reads them and as the opponent does.
///
/// Reading them costs 92 `pext` and as many table loads; a child's are its parent's
/// updated by the squares the move changed (as Edax does on make/unmake): a few vector
/// additions per changed square. The two views make a move's update linear (the new disc
/// adds one place value to the mover's view and two to the other's; a flipped disc takes
/// one from the mover's and adds one to the other's) and a pass a swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub struct Features {
    mover: [u16; LANES],
    other: [u16; LANES],
}

/// `PLACE_VALUES.0[s][c]`: what a disc of the side reading on square `s` adds to copy
/// `c`'s index (`3^digit`; 0 if `c` does not read `s`). Aligned for vector loads.
#[repr(align(32))]
struct PlaceValues([[u16; LANES]; 64]);

static PLACE_VALUES: PlaceValues = {
    let mut values = [[0u16; LANES]; 64];
    let mut c = 0;
    while c < COPY_COUNT {
        let (p, k) = COPY_SYMMETRIES[c];
        let squares = PATTERNS[p].squares;
        let mut i = 0;
        while i < squares.len() {
            values[preimage(squares[i], k) as usize][c] = 3u16.pow(i as u32);
            i += 1;
        }
        c += 1;
    }
    PlaceValues(values)
};

/// `a + b` lane by lane, written so that it compiles to vector additions.
#[inline(always)]
fn add(a: &[u16; LANES], b: &[u16; LANES]) -> [u16; LANES] {
    let mut out = [0u16; LANES];
    for i in 0..LANES {
        out[i] = a[i].wrapping_add(b[i]);
    }
    out
}

/// `a - b` lane by lane (wrapping: a view less the discs a move flipped never goes below
/// zero, but the compiler need not know).
#[inline(always)]
fn sub(a: &[u16; LANES], b: &[u16; LANES]) -> [u16; LANES] {
    let mut out = [0u16; LANES];
    for i in 0..LANES {
        out[i] = a[i].wrapping_sub(b[i]);
    }
    out
}

impl Features {
    /// The features of `board`.
    #[inline]
    pub fn of(board: &Board) -> Features {
        Features::read(Isa::detect(), board)
    }

    /// The features of `board`, read with the instructions of `isa` (one this CPU runs).
    #[inline]
    pub fn read(isa: Isa, board: &Board) -> Features {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 => {
                assert!(std::is_x86_feature_detected!("bmi2"));
                // SAFETY: the CPU has the features (v3 includes BMI2, checked just above).
                unsafe { read_v3(board) }
            }
            _ => read_features(board, pext_portable),
        }
    }

    /// The features after the side to move plays `sq`, flipping `flipped`: those of the
    /// child, whose side to move is the opponent.
    #[inline(always)]
    pub fn after_move(&self, sq: usize, flipped: u64) -> Features {
        let mut changed = [0u16; LANES];
        let mut rest = flipped;
        while rest != 0 {
            changed = add(&changed, &PLACE_VALUES.0[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        let new = &PLACE_VALUES.0[sq];
        Features {
            mover: add(&add(&add(&self.other, new), new), &changed),
            other: sub(&add(&self.mover, new), &changed),
        }
    }

    /// The features after a pass.
    #[inline(always)]
    pub fn passed(&self) -> Features {
        Features {
            mover: self.other,
            other: self.mover,
        }
    }

    /// Calls `f` with the table index of each feature of `board`, whose features these
    /// are (in the order of [`features`]).
    #[inline(always)]
    pub fn for_each_index(&self, board: &Board, mut f: impl FnMut(u32)) {
        // Unrolled, so that each copy's offset is an immediate (a loop over `COPIES`
        // took the evaluation from 76 to 106 ns when the features were read in it).
        const _: () = assert!(COPY_COUNT == 46);
        macro_rules! unrolled {
            ($($c:literal)*) => {
                $( f(COPIES[$c].offset + self.mover[$c] as u32); )*
            };
        }
        unrolled!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
            30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45);
        let mobility = |b: &Board| b.moves().count_ones().min(MOBILITY_CAP as u32) as usize;
        f((MOBILITY_OFFSET + mobility(board)) as u32);
        f((MOBILITY_OFFSET + MOBILITY_CAP + 1 + mobility(&board.pass())) as u32);
        f(CONSTANT_OFFSET as u32);
    }
}

/// With BMI2's `pext`, one instruction per side and copy (3 cycles on Zen 3 and later
/// and on Intel since Haswell).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn read_v3(board: &Board) -> Features {
    read_features(board, |x, mask| std::arch::x86_64::_pext_u64(x, mask))
}

/// The bits of `x` under `mask`, packed into the low bits in ascending order.
fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut packed = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            packed |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    packed
}

#[inline(always)]
fn read_features(board: &Board, pext: impl Fn(u64, u64) -> u64) -> Features {
    let mut features = Features {
        mover: [0; LANES],
        other: [0; LANES],
    };
    // Each copy's place values of the squares `bits` covers. Called with constant `c`
    // (unrolled below), the copy's mask and table are immediates.
    let places = |c: usize, bits: u64| {
        let copy = COPIES[c];
        // `pext` gives fewer bits than this; the mask only lets the compiler see it.
        let len = 1usize << copy.mask.count_ones();
        PLACES[copy.places..copy.places + len][pext(bits, copy.mask) as usize & (len - 1)]
    };
    macro_rules! unrolled {
        ($($c:literal)*) => {
            $(
                let (mine, theirs) = (places($c, board.player), places($c, board.opponent));
                features.mover[$c] = mine + 2 * theirs;
                features.other[$c] = theirs + 2 * mine;
            )*
        };
    }
    unrolled!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
        30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45);
    features
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;

    /// Any board: the two colours from two words, the second's discs the first's empties.
    fn any_board() -> impl Strategy<Value = Board> {
        (any::<u64>(), any::<u64>())
            .prop_map(|(occupied, player)| Board::new(player & occupied, occupied & !player))
    }

    /// The features read the slow, obvious way: each symmetric image of the board, each
    /// pattern's squares on it, digit by digit.
    fn naive_features(board: &Board) -> Vec<u32> {
        let mut seen: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut out = Vec::new();
        for k in 0..8 {
            let image = board.symmetry(k);
            for (p, pattern) in PATTERNS.iter().enumerate() {
                let mut squares: Vec<u32> =
                    pattern.squares.iter().map(|&s| preimage(s, k)).collect();
                squares.sort_unstable();
                if seen.contains(&(p, squares.clone())) {
                    continue;
                }
                seen.push((p, squares));
                let index: usize = pattern
                    .squares
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| {
                        let digit = (image.player >> s & 1) + 2 * (image.opponent >> s & 1);
                        digit as usize * 3usize.pow(i as u32)
                    })
                    .sum();
                out.push((OFFSETS[p] + index) as u32);
            }
        }
        let mobility = |b: &Board| b.moves().count_ones().min(MOBILITY_CAP as u32) as usize;
        out.push((MOBILITY_OFFSET + mobility(board)) as u32);
        out.push((MOBILITY_OFFSET + MOBILITY_CAP + 1 + mobility(&board.pass())) as u32);
        out.push(CONSTANT_OFFSET as u32);
        out.sort_unstable();
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn features_read_the_listed_squares_of_every_copy(board in any_board()) {
            for isa in Isa::available() {
                let mut fast = Vec::new();
                for_each_feature(isa, &board, |index| fast.push(index));
                fast.sort_unstable();
                prop_assert_eq!(&fast, &naive_features(&board), "{:?}", isa);
            }
        }

        /// Along a game, the features kept up to date move by move (and pass by pass) are
        /// those read afresh from each position.
        #[test]
        fn features_after_a_move_or_a_pass_are_those_read_from_the_child(
            choices in prop::collection::vec(0usize..32, 0..64)
        ) {
            let game = Game::from_choices(&choices);
            for isa in Isa::available() {
                let mut features = Features::read(isa, &Board::START);
                for (mv, pair) in game.moves.iter().zip(game.positions.windows(2)) {
                    let (before, after) = (pair[0].board, pair[1].board);
                    features = match *mv {
                        crate::Move::Pass => features.passed(),
                        crate::Move::Play(sq) => {
                            let flipped =
                                crate::flip::flip(sq.index(), before.player, before.opponent);
                            features.after_move(sq.index(), flipped)
                        }
                    };
                    prop_assert_eq!(features, Features::read(isa, &after), "{:?}", isa);
                }
            }
        }
    }

    #[test]
    fn every_square_is_read_and_copies_are_counted() {
        let copies: Vec<usize> = (0..11)
            .map(|p| COPY_SYMMETRIES.iter().filter(|&&(q, _)| q == p).count())
            .collect();
        assert_eq!(copies, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
        let covered = COPIES.iter().fold(0u64, |all, copy| all | copy.mask);
        assert_eq!(covered, u64::MAX);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn folded_features_are_the_same_for_symmetric_boards(board in any_board()) {
            let canonical = |b: &Board| {
                let mut f: Vec<usize> = features(b).iter().map(|&i| fold(i as usize)).collect();
                f.sort_unstable();
                f
            };
            let expected = canonical(&board);
            for k in 1..8 {
                prop_assert_eq!(&canonical(&board.symmetry(k)), &expected, "symmetry {}", k);
            }
        }
    }

    #[test]
    fn fold_ties_mirror_images_of_the_edge() {
        // a1 alone (digit 0) and h1 alone (digit 7) are mirror images.
        let a1 = OFFSETS[0] + 1;
        let h1 = OFFSETS[0] + 3usize.pow(7);
        assert_eq!(fold(h1), a1);
        assert_eq!(fold(a1), a1);
        // The 2x5 corner has no symmetry of its own.
        assert_eq!(fold(OFFSETS[2] + 5), OFFSETS[2] + 5);
    }
}
