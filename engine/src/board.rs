//! The board seen from the side to move: its discs (`player`) and the other side's
//! (`opponent`). Every rule of the game lives here or in `flip` / `wordops`.

use crate::bitboard::Bitboard;
use crate::flip::flip;
use crate::square::Square;
use crate::wordops;

/// The discs, from the side to move's view (the colours are [`crate::Position`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
}

/// d4, e4, d5, e5: occupied in every position of a real game.
pub const CENTRE: u64 = 0x0000_0018_1800_0000;

impl Board {
    /// The start position, black to move: black on e4 and d5, white on d4 and e5.
    pub const START: Board = Board {
        player: Square::E4.bit() | Square::D5.bit(),
        opponent: Square::D4.bit() | Square::E5.bit(),
    };

    /// The board of these discs.
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The empty squares.
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// How many squares are empty.
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// Squares the side to move can play, as a raw bitboard (the search's form).
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        wordops::moves(self.player, self.opponent)
    }

    /// Squares the side to move can play.
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(self.moves())
    }

    /// The number of legal moves of the side to move.
    #[inline(always)]
    pub fn mobility(&self) -> u32 {
        self.moves().count_ones()
    }

    /// Discs flipped by playing on the empty square `sq`; zero when the move is illegal.
    #[inline(always)]
    pub fn flips(&self, sq: Square) -> u64 {
        flip(sq.index(), self.player, self.opponent)
    }

    /// The position after the side to move plays `sq`, which flips `flipped`
    /// (as given by [`Board::flips`]); the opponent is to move next.
    #[inline(always)]
    pub fn play_flips(&self, sq: Square, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ sq.bit(),
        }
    }

    /// The position after playing `sq`, or `None` if it is not a legal move.
    pub fn play(&self, sq: Square) -> Option<Board> {
        if self.empties() & sq.bit() == 0 {
            return None;
        }
        match self.flips(sq) {
            0 => None,
            flipped => Some(self.play_flips(sq, flipped)),
        }
    }

    /// The same discs with the other side to move.
    #[inline(always)]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has no move but the opponent has: it must pass.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && self.pass().moves() != 0
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// The final score for the side to move when the game ends here: disc difference, with
    /// the empty squares going to the winner (the convention of Edax and the FFO suite).
    pub fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = self.empty_count() as i32;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The threshold `t` rounded up to even: final scores are even (the discs and the
    /// empties given to the winner make 64), so "at least `t`" is "at least this".
    pub fn even_threshold(t: i32) -> i32 {
        t + (t & 1)
    }

    /// The board under symmetry `k` in 0..8: bit 0 mirrors the files (a<->h), bit 1 the
    /// ranks (1<->8), bit 2 transposes about the a1-h8 diagonal, applied in that order.
    pub fn symmetry(&self, k: u32) -> Board {
        Board {
            player: symmetry(self.player, k),
            opponent: symmetry(self.opponent, k),
        }
    }

    /// The least of the eight symmetric images: equal for boards that are symmetric to
    /// each other, so it names a class of positions.
    #[inline]
    pub fn canonical(&self) -> Board {
        // The eight images in `symmetry`'s numbering, each built from a cheaper one
        // (perft's table takes this for every node it looks up).
        fn images(x: u64) -> [u64; 8] {
            let (m, v) = (mirror_files(x), x.swap_bytes());
            let mv = m.swap_bytes();
            [
                x,
                m,
                v,
                mv,
                transpose(x),
                transpose(m),
                transpose(v),
                transpose(mv),
            ]
        }
        let (p, o) = (images(self.player), images(self.opponent));
        let mut least = *self;
        for k in 1..8 {
            least = least.min(Board::new(p[k], o[k]));
        }
        least
    }

    /// A 64-bit hash of the board (side to move included, as the board is relative to it).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        mix(self.player ^ mix(self.opponent.rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15))
    }

    /// Reasons the position cannot arise in a game from the start position, if any is
    /// seen by cheap checks: an empty centre square, or a disc not 8-connected to the
    /// centre (every disc is placed next to one already on the board).
    pub fn impossibility(&self) -> Option<String> {
        let occupied = self.player | self.opponent;
        if let Some(sq) = Bitboard(CENTRE & !occupied).next() {
            return Some(format!("centre square {sq} is empty"));
        }
        let mut connected = CENTRE;
        loop {
            let grown = (connected | neighbours(connected)) & occupied;
            if grown == connected {
                break;
            }
            connected = grown;
        }
        Bitboard(occupied & !connected)
            .next()
            .map(|sq| format!("disc on {sq} is not connected to the centre"))
    }
}

/// The squares adjacent (8 directions) to those in `b`.
pub const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let row = b | (b << 1 & NOT_A) | (b >> 1 & NOT_H);
    (row | row << 8 | row >> 8) & !b
}

/// The splitmix64 finaliser: every input bit affects every output bit.
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const fn mirror_files(mut x: u64) -> u64 {
    x = (x >> 1 & 0x5555_5555_5555_5555) | (x & 0x5555_5555_5555_5555) << 1;
    x = (x >> 2 & 0x3333_3333_3333_3333) | (x & 0x3333_3333_3333_3333) << 2;
    (x >> 4 & 0x0f0f_0f0f_0f0f_0f0f) | (x & 0x0f0f_0f0f_0f0f_0f0f) << 4
}

const fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ x << 28);
    x ^= t ^ t >> 28;
    let t = 0x3333_0000_3333_0000 & (x ^ x << 14);
    x ^= t ^ t >> 14;
    let t = 0x5500_5500_5500_5500 & (x ^ x << 7);
    x ^ t ^ t >> 7
}

/// A bitboard under symmetry `k` (see [`Board::symmetry`]).
pub const fn symmetry(mut x: u64, k: u32) -> u64 {
    if k & 1 != 0 {
        x = mirror_files(x);
    }
    if k & 2 != 0 {
        x = x.swap_bytes();
    }
    if k & 4 != 0 {
        x = transpose(x);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_round_up_to_even() {
        assert_eq!(Board::even_threshold(3), 4);
        assert_eq!(Board::even_threshold(-3), -2);
        assert_eq!(Board::even_threshold(2), 2);
        assert_eq!(Board::even_threshold(0), 0);
        assert_eq!(Board::START.final_score() % 2, 0);
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_position() {
        let b = Board::START;
        assert_eq!(b.legal_moves().to_string(), "d3 c4 f5 e6");
        assert_eq!(b.mobility(), 4);
        assert_eq!(b.empty_count(), 60);
        assert!(!b.is_game_over() && !b.must_pass());
        let after = b.play(sq("f5")).unwrap();
        assert_eq!(after.opponent.count_ones(), 4);
        assert_eq!(after.player.count_ones(), 1);
        assert_eq!(after.legal_moves().to_string(), "f4 d6 f6");
        assert_eq!(b.play(sq("a1")), None);
        assert_eq!(b.play(sq("d4")), None);
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        assert_eq!(Board::new(0b1110, 0b1).final_score(), 3 - 1 + 60);
        assert_eq!(Board::new(0b1, 0b1110).final_score(), -62);
        assert_eq!(Board::new(0b11, 0b1100).final_score(), 0);
        assert_eq!(Board::new(!0, 0).final_score(), 64);
    }

    #[test]
    fn symmetries_form_the_dihedral_group() {
        let x = 0x0123_4567_89ab_cdefu64;
        let images: std::collections::HashSet<u64> = (0..8).map(|k| symmetry(x, k)).collect();
        assert_eq!(images.len(), 8);
        // a1 goes to the four corners, and b1 to all 8 edge squares next to a corner.
        let corners: Bitboard = (0..8)
            .map(|k| Bitboard(symmetry(1, k)))
            .fold(Bitboard(0), |a, b| a | b);
        assert_eq!(corners.to_string(), "a1 h1 a8 h8");
        let b1_images = (0..8).fold(0, |a, k| a | symmetry(1 << 1, k));
        assert_eq!(Bitboard(b1_images).to_string(), "b1 g1 a2 h2 a7 h7 b8 g8");
        for k in 0..8 {
            for j in 0..8 {
                // closure: composing two symmetries is one of the eight.
                let composed = symmetry(symmetry(x, k), j);
                assert!(images.contains(&composed));
            }
        }
        // the start position is symmetric under the 180-degree rotation and a diagonal.
        assert_eq!(Board::START.symmetry(3), Board::START);
        assert_eq!(
            Board::START.canonical(),
            Board::START.symmetry(4).canonical()
        );
    }

    #[test]
    fn canonical_is_the_least_image() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            x = mix(x);
            let b = Board::new(x & 0x5a5a_0f0f_3c3c_8181, mix(x) & !x);
            let least = (0..8).map(|k| b.symmetry(k)).min().unwrap();
            assert_eq!(b.canonical(), least);
        }
    }

    #[test]
    fn moves_commute_with_symmetry() {
        let b = Board::START.play(sq("f5")).unwrap().play(sq("d6")).unwrap();
        for k in 0..8 {
            assert_eq!(symmetry(b.moves(), k), b.symmetry(k).moves());
        }
    }

    #[test]
    fn hash_separates_side_to_move() {
        let b = Board::START.play(sq("f5")).unwrap();
        assert_ne!(b.hash(), b.pass().hash());
        assert_eq!(b.hash(), Board::new(b.player, b.opponent).hash());
    }

    #[test]
    fn impossible_positions() {
        assert_eq!(Board::START.impossibility(), None);
        let no_centre = Board::new(Square::D4.bit(), Square::E4.bit());
        assert_eq!(
            no_centre.impossibility().unwrap(),
            "centre square d5 is empty"
        );
        let island = Board::new(Board::START.player | 1, Board::START.opponent);
        assert_eq!(
            island.impossibility().unwrap(),
            "disc on a1 is not connected to the centre"
        );
    }
}
