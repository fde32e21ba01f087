//! Flip accounting: a necessary condition for a position to be reachable, with time left
//! out, small enough to solve in milliseconds. Each disc outside the centre was played
//! once, with some colour, and its move flipped at least one run of discs; every disc's
//! colour now is where its flips, which alternate, left it. If no choice of colours and
//! runs accounts for every disc, no game reaches the position.
//!
//! The abstraction of a game `G` reaching the position, variable by variable (each
//! constraint below holds for it, which is the proof that UNSAT here means unreachable):
//!
//! - `black[s]`: the disc on `s` (outside the centre) was played black in `G`;
//! - `run[s][c][d][k]`: the move on `s`, of colour `c`, flipped in direction `d` the discs
//!   up to `s + k*d` (exclusive, `k >= 2`), bracketed by the disc there. Every move flips
//!   in at least one direction and ends each flipped run at the first disc of its colour
//!   (one `k` per direction). The run and its end were on the board at that moment, so
//!   they are discs of the position that can be placed before `s`: not among the squares
//!   that no order of play places without `s` ([`crate::target::placement_rounds`] of the
//!   position without `s`).
//! - For each disc `q`, the flips of `q` (runs through it) alternate in colour, the first
//!   to the colour other than the one it was placed with (or had at the start): with `X`
//!   the flips to its present colour and `Y` the others, `X - Y` is 1 if it was placed
//!   with the other colour, else 0. Counted exactly up to [`CAP`]: beyond, the constraints
//!   kept are implied by the exact ones, so still sound.
//! - The disc that ends a run had the mover's colour then: placed so, or flipped to it.
//! - Two moves cannot each have used the other's disc: for two squares that can each be
//!   placed before the other, one variable says which came first, and a run needs its
//!   discs first.

use engine::board::CENTRE;
use engine::{Bitboard, Position, Square};
use std::collections::HashMap;

use rustsat::types::Lit;

use crate::formula::Formula;
use crate::target::placement_rounds;

/// How far the flips of one disc are counted exactly.
pub const CAP: usize = 4;

/// A flip of one disc: the run's variable and the colour it turns the disc to (for the
/// disc ending a run, the colour it must have had).
#[derive(Clone, Copy)]
struct Flip {
    run: Lit,
    black: bool,
}

/// The accounting question for `position` (its discs; the side to move plays no part).
pub fn encode_accounting(position: &Position) -> Formula {
    let (black_now, white_now) = position.discs();
    let occupied = black_now | white_now;
    let start_black = Position::START.discs().0;
    let mut f = Formula::new();
    let placed = occupied & !CENTRE;
    // Per square, the discs that can be on the board before it is played.
    let mut before = [0u64; 64];
    for s in Bitboard(placed) {
        let without = occupied & !s.bit();
        let rounds = placement_rounds(without);
        let after = Bitboard(without)
            .filter(|w| rounds[w.index()] == usize::MAX)
            .fold(0, |acc, w| acc | w.bit());
        before[s.index()] = without & !after;
    }
    // Which of two discs that can each be placed before the other came first: one
    // variable per such pair, true when the lower square came first.
    let mut first: HashMap<(usize, usize), Lit> = HashMap::new();
    // Whether each disc was placed (or started) black.
    let black_first: Vec<Lit> = Square::all()
        .map(|q| {
            if placed & q.bit() != 0 {
                f.lit()
            } else {
                f.constant(start_black & q.bit() != 0)
            }
        })
        .collect();
    let has_colour = |black: bool, q: Square| {
        if black {
            black_first[q.index()]
        } else {
            !black_first[q.index()]
        }
    };
    // Per disc, its flips, and the runs that end at it.
    let mut flips: Vec<Vec<Flip>> = vec![Vec::new(); 64];
    let mut ends: Vec<Vec<Flip>> = vec![Vec::new(); 64];
    for s in Bitboard(placed) {
        let mut any = Vec::new();
        for black in [false, true] {
            for d in 0..8 {
                let mut runs = Vec::new();
                let mut line = Vec::new();
                let mut next = s.step(d);
                while let Some(sq) = next.filter(|sq| before[s.index()] & sq.bit() != 0) {
                    if !line.is_empty() {
                        let run = f.lit();
                        f.clause(&[!run, has_colour(black, s)]);
                        // The run's discs came before `s`: said only where the order
                        // could go either way.
                        for &r in line.iter().chain([&sq]) {
                            if placed & r.bit() != 0 && before[r.index()] & s.bit() != 0 {
                                let (i, j) = (r.index(), s.index());
                                let pair =
                                    *first.entry((i.min(j), i.max(j))).or_insert_with(|| f.lit());
                                f.clause(&[!run, if i < j { pair } else { !pair }]);
                            }
                        }
                        let flip = Flip { run, black };
                        for r in &line {
                            flips[r.index()].push(flip);
                        }
                        ends[sq.index()].push(flip);
                        runs.push(run);
                    }
                    line.push(sq);
                    next = sq.step(d);
                }
                f.at_most_one(&runs);
                any.extend(runs);
            }
        }
        f.clause(&any);
    }
    for q in Bitboard(occupied) {
        let now_black = black_now & q.bit() != 0;
        let of_colour = |black: bool| -> Vec<Lit> {
            flips[q.index()]
                .iter()
                .filter(|g| g.black == black)
                .map(|g| g.run)
                .collect()
        };
        let x = f.count_up_to(&of_colour(now_black), CAP);
        let y = f.count_up_to(&of_colour(!now_black), CAP);
        // Placed (or started) with the other colour than now.
        let changed = has_colour(!now_black, q);
        for i in 0..CAP {
            // Y <= X always; X <= Y + 1 always.
            f.clause(&[!y[i], x[i]]);
            if i + 1 < CAP {
                f.clause(&[!x[i + 1], y[i]]);
                // Changed: X = Y + 1.
                f.clause(&[!changed, !y[i], x[i + 1]]);
            }
            // Unchanged: X = Y.
            f.clause(&[changed, !x[i], y[i]]);
        }
        f.clause(&[!changed, x[0]]);
        // A run ending here in the other colour than now: the disc had that colour once,
        // placed so or flipped to it.
        for g in ends[q.index()].iter().filter(|g| g.black != now_black) {
            f.clause(&[!g.run, changed, y[0]]);
        }
    }
    f
}

/// An accounting that no assignment satisfies, with the checked proof of it.
pub struct Refutation {
    /// The accounting's clauses.
    pub formula: Formula,
    /// varisat's proof, accepted by its checker ([`crate::proof::check`]).
    pub proof: Vec<u8>,
}

/// Whether the accounting refutes `position`: the formula and a checked proof that it is
/// unsatisfiable, or `None` if some accounting exists (which proves nothing) or, should
/// it ever happen, the proof fails its check (then the accounting claims nothing).
pub fn accounting_refutes(position: &Position) -> Option<Refutation> {
    let formula = encode_accounting(position);
    let proof = crate::proof::refute(&formula)?;
    crate::proof::check(&formula, &proof).ok()?;
    Some(Refutation { formula, proof })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(30))]

        /// The accounting never refutes a position a game reaches.
        #[test]
        fn positions_of_games_are_accounted_for(
            choices in prop::collection::vec(0usize..32, 0..64)
        ) {
            let game = Game::from_choices(&choices);
            for p in game.positions.iter().step_by(7) {
                prop_assert!(accounting_refutes(p).is_none(), "{}", engine::Obf::new(*p));
            }
        }
    }

    /// A random board (from `retro sample --random-boards`) that retro's cheap rules pass
    /// and the accounting refutes: the test fails if the accounting gets weaker.
    #[test]
    fn refutes_a_random_board_the_cheap_rules_pass() {
        let board = "X----O---O--O----XXXOO-----XX-O-X--OOOX--OOXO-O--OXO-O-OXOXOXXO- X";
        let position = engine::Obf::parse(board).unwrap().position;
        assert!(accounting_refutes(&position).is_some());
    }

    #[test]
    fn counter_is_exact_up_to_its_cap() {
        for n in 0..6usize {
            for mask in 0..1u32 << n {
                let mut f = Formula::new();
                let lits = f.block(n);
                let counts = f.count_up_to(&lits, 3);
                for (i, &l) in lits.iter().enumerate() {
                    f.clause(&[if mask >> i & 1 == 1 { l } else { !l }]);
                }
                let model = crate::solve::varisat(&f).unwrap();
                let value = |l: Lit| model[l.var().idx()] != l.is_neg();
                for (i, &c) in counts.iter().enumerate() {
                    assert_eq!(
                        value(c),
                        mask.count_ones() as usize > i,
                        "n {n} mask {mask}"
                    );
                }
            }
        }
    }
}
