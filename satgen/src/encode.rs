//! Games from the start under the variant rules (a pass is a ply, allowed only without a
//! legal move; two passes do not end the game) as CNF, in one of two encodings of the
//! rules; the rest is shared. The move is one-hot over the 64 squares and the pass. The
//! score question, "some position has at least N legal moves", is a totalizer per ply
//! (rustsat) behind a selector, and at least one selector.
//!
//! - `rays`: per ply, per square and direction, two chains along the ray: `A` "walking from
//!   here over the opponent's discs, the first other square holds a mover's disc" and `B`
//!   "... is the square the mover plays". A square is a legal move when it is empty and its
//!   neighbour in some direction is an opponent disc whose `A` holds; an opponent disc flips
//!   when `A` holds one way and `B` the other.
//! - `wordops`: the core's table-free move generation and flip run on words of literals
//!   (the crate's module of that name), every shift, and, or a gate (constants folded).

use std::cell::RefCell;

use engine::{wordops, Square};
use rustsat::types::Lit;

use crate::formula::Formula;
use crate::wordops::LitWord;

/// The square next to `sq` in direction `d` (`engine::square::DIRECTIONS`; `d ^ 1` is the
/// opposite direction).
pub(crate) fn step(sq: usize, d: usize) -> Option<usize> {
    Square::new(sq as u32)
        .and_then(|s| s.step(d))
        .map(Square::index)
}

/// Which side must have the many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum SideFilter {
    /// Either side.
    Any,
    /// Black to move (even plies).
    Black,
    /// White to move (odd plies).
    White,
}

impl SideFilter {
    /// Whether the position after `ply` plies counts (black moves at even plies: a pass is
    /// a ply).
    pub fn allows(self, ply: usize) -> bool {
        match self {
            SideFilter::Any => true,
            SideFilter::Black => ply % 2 == 0,
            SideFilter::White => ply % 2 == 1,
        }
    }
}

/// How the rules of one ply become clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// Chains along each ray, per square and direction (the default: far smaller).
    Rays,
    /// The core's table-free word operations, bit-blasted.
    Wordops,
}

impl Encoding {
    /// Every encoding (the tests hold them equal).
    pub const ALL: [Encoding; 2] = [Encoding::Rays, Encoding::Wordops];

    /// The name on the command line (clap's, which the tests hold equal), also written in
    /// DIMACS headers.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Rays => "rays",
            Encoding::Wordops => "wordops",
        }
    }
}

/// "A game of at most `plies` plies (exactly, with `exact_ply`) reaching a position where
/// the side to move has at least `mobility` legal moves", under the variant rules.
#[derive(Clone, Copy, Debug)]
pub struct Question {
    /// Plies from the start (a pass is a ply).
    pub plies: usize,
    /// The legal moves asked for.
    pub mobility: usize,
    /// Whose move it must be there.
    pub side: SideFilter,
    /// Fix the first move to f5 (the four first moves are symmetric).
    pub symmetry_break: bool,
    /// How the rules become clauses.
    pub encoding: Encoding,
    /// Only the position after exactly `plies` plies counts. The question at 42 plies is
    /// the disjunction of these over `plies` = 0..=42, each far smaller (no choice of ply,
    /// no totalizer on the other plies): the cubes of `satgen cubes --by-ply`.
    pub exact_ply: bool,
}

impl Question {
    /// Whether the position after `ply` plies may be the one with the many moves.
    fn counts(&self, ply: usize) -> bool {
        self.side.allows(ply) && (!self.exact_ply || ply == self.plies)
    }
}

/// Where the variables that describe a game live: per ply `i`, black and white discs and
/// the move (squares a1..h8, then the pass) are consecutive blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// `black[i]`: the 64 literals "black disc on this square" at ply `i`.
    pub black: Vec<Vec<Lit>>,
    /// The same for white.
    pub white: Vec<Vec<Lit>>,
    /// `moves[i]` has 65 literals: the square played at ply `i`, or (last) the pass.
    pub moves: Vec<Vec<Lit>>,
}

/// A question as clauses, and where its variables are.
pub struct Encoded {
    /// The clauses.
    pub formula: Formula,
    /// Where the game's variables are.
    pub layout: Layout,
    /// Per ply, the literal "the game is followed under the rules up to here".
    pub active: Vec<Lit>,
    /// Per ply (0 to the last), the 64 literals "this square is a legal move".
    pub legal: Vec<Vec<Lit>>,
}

/// The legal-move literals of a position, with the `A` chains they rest on.
pub(crate) fn legal_moves(
    f: &mut Formula,
    player: &[Lit],
    opponent: &[Lit],
) -> (Vec<Lit>, Vec<[Lit; 8]>) {
    // A[t][d], computed from the far end of each ray.
    let mut a = vec![[f.f; 8]; 64];
    // X[t][d]: the neighbour of t in direction d is an opponent disc whose A holds.
    let mut x = vec![[f.f; 8]; 64];
    for d in 0..8 {
        let mut order: Vec<usize> = (0..64).collect();
        // Squares nearer the end of the ray first.
        order.sort_by_key(|&sq| {
            let mut steps = 0;
            let mut s = sq;
            while let Some(n) = step(s, d) {
                steps += 1;
                s = n;
            }
            steps
        });
        for &t in &order {
            if let Some(n) = step(t, d) {
                x[t][d] = f.and(&[opponent[n], a[n][d]]);
                a[t][d] = f.or(&[player[n], x[t][d]]);
            }
        }
    }
    let legal = (0..64)
        .map(|s| {
            let capture = f.or(&x[s]);
            f.and(&[!player[s], !opponent[s], capture])
        })
        .collect();
    (legal, a)
}

/// The opponent discs that flip when the move `moves` (one-hot, pass last) is played,
/// along the rays: bracketed by `A` one way and `B` (towards the move) the other.
pub(crate) fn ray_flips(
    f: &mut Formula,
    opponent: &[Lit],
    moves: &[Lit],
    a: &[[Lit; 8]],
) -> Vec<Lit> {
    // B[t][d], from the far end of each ray.
    let mut b = vec![[f.f; 8]; 64];
    #[allow(clippy::needless_range_loop)] // d indexes rays of several squares
    for d in 0..8 {
        let mut t = (0..64)
            .filter(|&sq| step(sq, d).is_none())
            .collect::<Vec<_>>();
        // Walk each ray backwards from its end.
        let back = d ^ 1;
        while !t.is_empty() {
            let mut previous = Vec::new();
            for &sq in &t {
                if let Some(p) = step(sq, back) {
                    // p's neighbour in direction d is sq.
                    let through = f.and(&[opponent[sq], b[sq][d]]);
                    b[p][d] = f.or(&[moves[sq], through]);
                    previous.push(p);
                }
            }
            t = previous;
        }
    }
    (0..64)
        .map(|t| {
            let lines: Vec<Lit> = (0..8).map(|d| f.and(&[a[t][d], b[t][d ^ 1]])).collect();
            let bracketed = f.or(&lines);
            f.and(&[opponent[t], bracketed])
        })
        .collect()
}

/// The rules of one ply in one encoding: the legal moves of a position, then the discs a
/// chosen move flips.
enum Rules {
    /// The `A` chains, shared by the legal moves and the flips.
    Rays(Vec<[Lit; 8]>),
    Wordops,
}

impl Rules {
    fn legal_moves(
        encoding: Encoding,
        f: &mut Formula,
        player: &[Lit],
        opponent: &[Lit],
    ) -> (Rules, Vec<Lit>) {
        match encoding {
            Encoding::Rays => {
                let (legal, a) = legal_moves(f, player, opponent);
                (Rules::Rays(a), legal)
            }
            Encoding::Wordops => {
                let legal = on_words(f, |cell| {
                    let word = |bits| LitWord::new(cell, bits);
                    wordops::moves(word(player), word(opponent)).bits
                });
                (Rules::Wordops, legal.to_vec())
            }
        }
    }

    fn flips(&self, f: &mut Formula, player: &[Lit], opponent: &[Lit], moves: &[Lit]) -> Vec<Lit> {
        match self {
            Rules::Rays(a) => ray_flips(f, opponent, moves, a),
            Rules::Wordops => on_words(f, |cell| {
                let word = |bits| LitWord::new(cell, bits);
                wordops::flip(word(&moves[..64]), word(player), word(opponent)).bits
            })
            .to_vec(),
        }
    }
}

/// Runs `build` with the formula in a cell, as words of literals need it.
fn on_words<R>(f: &mut Formula, build: impl FnOnce(&RefCell<Formula>) -> R) -> R {
    let cell = RefCell::new(std::mem::take(f));
    let result = build(&cell);
    *f = cell.into_inner();
    result
}

/// The clauses of question `q`.
pub fn encode(q: &Question) -> Encoded {
    let mut f = Formula::new();
    let mut layout = Layout::default();
    let start = engine::Board::START;
    // Ply 0: the start position, black to move.
    let black0 = f.block(64);
    let white0 = f.block(64);
    for s in 0..64 {
        f.clause(&[if start.player >> s & 1 == 1 {
            black0[s]
        } else {
            !black0[s]
        }]);
        f.clause(&[if start.opponent >> s & 1 == 1 {
            white0[s]
        } else {
            !white0[s]
        }]);
    }
    layout.black.push(black0);
    layout.white.push(white0);
    let mut selectors = Vec::new();
    // active[i]: the game is followed, move by move under the rules, up to ply i. Only the
    // plies up to the position with the many moves need to be: every legal prefix extends
    // to the full plies (a pass is always allowed without a move), so freeing the plies
    // after it changes no answer and spares the solver building a continuation.
    let mut active = vec![f.constant(true)];
    let mut legal_by_ply = Vec::new();
    for i in 0..=q.plies {
        let (black, white) = (layout.black[i].clone(), layout.white[i].clone());
        let (player, opponent) = if i % 2 == 0 {
            (&black, &white)
        } else {
            (&white, &black)
        };
        let (rules, legal) = Rules::legal_moves(q.encoding, &mut f, player, opponent);
        legal_by_ply.push(legal.clone());
        if q.counts(i) {
            let select = f.lit();
            f.at_least_if(select, &legal, q.mobility);
            f.clause(&[!select, active[i]]);
            selectors.push(select);
        }
        if i == q.plies {
            break;
        }
        // The game goes on to ply i + 1 (checked, legal) only if this is active.
        let next_active = f.lit();
        f.clause(&[!next_active, active[i]]);
        active.push(next_active);
        let next_black = f.block(64);
        let next_white = f.block(64);
        let moves = f.block(65);
        let pass = moves[64];
        // One-hot move; a square only if legal; the pass only without a legal move; all
        // of it only on active plies.
        f.clause(&[&[!next_active][..], &moves].concat());
        f.at_most_one(&moves);
        for s in 0..64 {
            f.clause(&[!next_active, !moves[s], legal[s]]);
            f.clause(&[!next_active, !pass, !legal[s]]);
        }
        if i == 0 && q.symmetry_break {
            f.clause(&[moves[engine::Square::F5.index()]]);
        }
        let flipped = rules.flips(&mut f, player, opponent, &moves);
        let (next_player, next_opponent) = if i % 2 == 0 {
            (&next_black, &next_white)
        } else {
            (&next_white, &next_black)
        };
        for t in 0..64 {
            f.define_or(next_player[t], &[player[t], moves[t], flipped[t]]);
            f.define_and(next_opponent[t], &[opponent[t], !flipped[t]]);
        }
        layout.black.push(next_black);
        layout.white.push(next_white);
        layout.moves.push(moves);
    }
    f.clause(&selectors);
    Encoded {
        formula: f,
        layout,
        active,
        legal: legal_by_ply,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::replay_variant;
    use engine::{Board, Game, Move};
    use proptest::prelude::*;

    fn question(plies: usize, mobility: usize, encoding: Encoding) -> Question {
        Question {
            plies,
            mobility,
            side: SideFilter::Any,
            symmetry_break: false,
            encoding,
            exact_ply: false,
        }
    }

    #[cfg(feature = "cli")]
    #[test]
    fn an_encoding_s_name_is_the_one_the_command_line_takes() {
        use clap::ValueEnum as _;
        for encoding in Encoding::ALL {
            let value = encoding.to_possible_value().unwrap();
            assert_eq!(encoding.name(), value.get_name());
        }
        assert_eq!(Encoding::value_variants(), Encoding::ALL);
    }

    /// Fixes the moves, and the rules on every ply (not only up to a position with the
    /// mobility asked).
    fn fix_moves(encoded: &mut Encoded, moves: &[Move]) {
        for (i, mv) in moves.iter().enumerate() {
            let lit = encoded.layout.moves[i][crate::dimacs::move_index(*mv)];
            encoded.formula.clause(&[lit]);
        }
        for &active in &encoded.active {
            encoded.formula.clause(&[active]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Fixing the moves of games: SAT, and the board variables are the core's boards at
        /// every ply; changing the last move to an illegal one (an occupied square, an
        /// empty square that flips nothing): UNSAT. Both encodings.
        #[test]
        fn boards_follow_the_core_and_illegal_moves_are_unsat(
            choices in prop::collection::vec(0usize..32, 6..18)
        ) {
            let game = Game::from_choices(&choices);
            let moves = &game.moves[..];
            for encoding in Encoding::ALL {
                let mut encoded = encode(&question(moves.len(), 0, encoding));
                fix_moves(&mut encoded, moves);
                let model = crate::solve::varisat(&encoded.formula).expect("a real game is SAT");
                let boards = replay_variant(moves).unwrap();
                for (i, board) in boards.iter().enumerate() {
                    let value = |l: Lit| model[l.var().idx()] != l.is_neg();
                    let bits = |block: &[Lit]| {
                        (0..64).fold(0u64, |acc, s| acc | (value(block[s]) as u64) << s)
                    };
                    let (black, white) = (
                        bits(&encoded.layout.black[i]),
                        bits(&encoded.layout.white[i]),
                    );
                    let expected = if i % 2 == 0 {
                        (board.player, board.opponent)
                    } else {
                        (board.opponent, board.player)
                    };
                    prop_assert_eq!((black, white), expected, "{:?} ply {}", encoding, i);
                }
                let last = moves.len() - 1;
                let before = boards[last];
                let occupied = before.player | before.opponent;
                let no_flip = !occupied & !before.moves();
                for illegal in [occupied, no_flip].map(u64::trailing_zeros) {
                    let mut bad = moves.to_vec();
                    bad[last] = Move::Play(engine::Square::new(illegal).unwrap());
                    let mut encoded = encode(&question(moves.len(), 0, encoding));
                    fix_moves(&mut encoded, &bad);
                    prop_assert!(
                        crate::solve::varisat(&encoded.formula).is_none(),
                        "{:?} square {}",
                        encoding,
                        illegal
                    );
                }
            }
        }
    }

    /// The largest mobility after exactly `plies` plies of the variant rules (a pass when
    /// there is no move, and play goes on), by brute force.
    fn exact_max_mobility(board: &Board, plies: usize) -> u32 {
        if plies == 0 {
            return board.mobility();
        }
        let moves = board.moves();
        if moves == 0 {
            return exact_max_mobility(&board.pass(), plies - 1);
        }
        engine::Bitboard(moves)
            .map(|sq| exact_max_mobility(&board.play_flips(sq, board.flips(sq)), plies - 1))
            .max()
            .unwrap_or(0)
    }

    /// With `exact_ply`, the SAT/UNSAT boundary is the largest mobility at exactly that
    /// ply (after 1 ply it is 3, at the start 4: a mutant counting every ply up to it
    /// fails).
    #[test]
    fn exact_ply_boundary_matches_brute_force() {
        let most: Vec<u32> = (0..=5)
            .map(|p| exact_max_mobility(&Board::START, p))
            .collect();
        assert_eq!(most[..2], [4, 3]);
        for encoding in Encoding::ALL {
            for plies in 1..=5 {
                let most = exact_max_mobility(&Board::START, plies) as usize;
                for (mobility, sat) in [(most, true), (most + 1, false)] {
                    let q = Question {
                        symmetry_break: true,
                        exact_ply: true,
                        ..question(plies, mobility, encoding)
                    };
                    let encoded = encode(&q);
                    let model = crate::solve::varisat(&encoded.formula);
                    assert_eq!(
                        model.is_some(),
                        sat,
                        "{encoding:?} ply {plies}, mobility {mobility}"
                    );
                    if let Some(model) = model {
                        // Decoding stops at the first position with the mobility.
                        let game = crate::decode::decode(
                            &encoded.layout,
                            &model,
                            mobility as u32,
                            SideFilter::Any,
                        )
                        .unwrap();
                        let boards = replay_variant(&game.moves).unwrap();
                        assert!(boards[game.ply].mobility() as usize >= most);
                    }
                }
            }
        }
    }

    /// The SAT/UNSAT boundary at small ply counts is the true maximum mobility, in both
    /// encodings.
    #[test]
    fn boundary_matches_brute_force() {
        for encoding in Encoding::ALL {
            for plies in 1..=4 {
                let most = engine::reference::max_mobility(&Board::START, plies as u32) as usize;
                for (mobility, sat) in [(most, true), (most + 1, false)] {
                    let encoded = encode(&Question {
                        symmetry_break: true,
                        ..question(plies, mobility, encoding)
                    });
                    let model = crate::solve::varisat(&encoded.formula);
                    assert_eq!(
                        model.is_some(),
                        sat,
                        "{encoding:?} {plies} plies, mobility {mobility}"
                    );
                    if let Some(model) = model {
                        let decoded = crate::decode::decode(
                            &encoded.layout,
                            &model,
                            mobility as u32,
                            SideFilter::Any,
                        )
                        .unwrap();
                        assert_eq!(decoded.mobility as usize, most);
                    }
                }
            }
        }
    }
}
