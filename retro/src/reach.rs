//! Backward search to the start: is a position reachable by a legal game?
//!
//! A forward frontier holds every reachable position with up to `frontier_discs` discs
//! (whose side to move has a move; see [`crate::enumerate`]). The backward search unmoves
//! from the target until it meets the frontier: a position inside the frontier's disc range
//! is reachable exactly when the frontier holds it, so each branch ends there or earlier,
//! pruned by discs no game can have played ([`crate::refute::unplayable_disc`]) and by a
//! memo of refuted positions (under the symmetries fixing the start). A witness is rebuilt
//! by unmoving through the frontier to the start and replayed forward by the core before
//! it is returned.

use std::collections::HashSet;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use engine::{Board, Move, Position};

use crate::enumerate::{reduce, side_index, Convention, Level, Side};
use crate::sorted::{key, SortedSet};
use crate::unmove::unmoves;

/// Every reachable position with a legal move for the side to move, by disc count.
pub struct Frontier {
    discs: u32,
    /// `levels[d - 4][side]`: sorted representatives with `d` discs.
    levels: Vec<[Vec<u128>; 2]>,
}

impl Frontier {
    /// Enumerates the positions with up to `discs` discs.
    pub fn new(discs: u32) -> io::Result<Frontier> {
        let mut level = Level::start(Convention::Discs);
        let mut levels = Vec::new();
        loop {
            let [black, white] = &level.sets;
            levels.push([to_vec(black)?, to_vec(white)?]);
            if level.number >= discs {
                break;
            }
            level = level.next(Convention::Discs, usize::MAX / 4)?;
        }
        Ok(Frontier { discs, levels })
    }

    /// The disc count it was enumerated up to.
    pub fn discs(&self) -> u32 {
        self.discs
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.levels.iter().flatten().map(Vec::len).sum()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `board` (side `side` to move, with a legal move) is reachable; only for
    /// boards with at most [`Frontier::discs`] discs.
    fn holds(&self, board: &Board, side: Side) -> bool {
        let discs = (board.player | board.opponent).count_ones() as usize;
        self.levels
            .get(discs.wrapping_sub(4))
            .is_some_and(|level| level[side].binary_search(&key(&reduce(board))).is_ok())
    }

    /// Moves from the start to `board`, which the frontier holds (or which follows a
    /// position it holds by a pass).
    fn path(&self, board: &Board, side: Side) -> Option<Vec<Move>> {
        if *board == Board::START && side == 0 {
            return Some(Vec::new());
        }
        unmoves(board, side)
            .into_iter()
            .filter(|u| u.board.moves() == 0 || self.holds(&u.board, u.side))
            .find_map(|u| {
                let mut path = self.path(&u.board, u.side)?;
                path.push(u.mv);
                Some(path)
            })
    }
}

fn to_vec(set: &SortedSet) -> io::Result<Vec<u128>> {
    let mut keys = Vec::with_capacity(set.len());
    set.for_each_chunk(1 << 16, |c| keys.extend_from_slice(c))?;
    Ok(keys)
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// A game from the start reaching the position, replayed and checked; `None`: no game
    /// reaches it (the search was exhaustive).
    pub witness: Option<Vec<Move>>,
    /// Positions the backward search visited.
    pub nodes: u64,
}

struct Search<'a> {
    frontier: &'a Frontier,
    refuted: HashSet<(Board, Side)>,
    memo_limit: usize,
    nodes: u64,
    max_nodes: u64,
    stop: &'a AtomicBool,
}

impl Search<'_> {
    /// Whether the search must give up (stopped from outside, or out of nodes).
    fn halted(&self) -> bool {
        self.nodes > self.max_nodes || self.stop.load(Relaxed)
    }

    fn search(&mut self, board: &Board, side: Side) -> Option<Vec<Move>> {
        self.nodes += 1;
        if crate::refute::unplayable_disc(board).is_some() || self.halted() {
            return None;
        }
        let discs = (board.player | board.opponent).count_ones();
        if discs <= self.frontier.discs() && board.moves() != 0 {
            if !self.frontier.holds(board, side) {
                return None;
            }
            return self.frontier.path(board, side);
        }
        let memo = (reduce(board), side);
        if self.refuted.contains(&memo) {
            return None;
        }
        // Unmoves that give back more discs first: on real games this finds a way back
        // orders of magnitude sooner than square order (results/retro.md, "Figures once in
        // code comments"); refutations visit everything anyway.
        let mut back = unmoves(board, side);
        back.sort_by_key(|u| std::cmp::Reverse((u.board.opponent & !board.player).count_ones()));
        for u in back {
            if let Some(mut path) = self.search(&u.board, u.side) {
                path.push(u.mv);
                return Some(path);
            }
        }
        if self.refuted.len() >= self.memo_limit {
            self.refuted.clear();
        }
        if !self.halted() {
            self.refuted.insert(memo);
        }
        None
    }
}

/// The backward search gave up before an answer: `stop` was raised, or it visited more
/// than its `max_nodes` positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Halted {
    /// Positions visited.
    pub nodes: u64,
}

/// Whether a legal game reaches `position`, remembering at most `memo_limit` refuted
/// positions and visiting at most about `max_nodes` positions.
pub fn reach(
    frontier: &Frontier,
    position: &Position,
    memo_limit: usize,
    max_nodes: u64,
    stop: &AtomicBool,
) -> Result<Reach, Halted> {
    let mut search = Search {
        frontier,
        refuted: HashSet::new(),
        memo_limit,
        nodes: 0,
        max_nodes,
        stop,
    };
    let witness = search.search(&position.board, side_index(position.side));
    if witness.is_none() && search.halted() {
        return Err(Halted {
            nodes: search.nodes,
        });
    }
    if let Some(moves) = &witness {
        let mut replayed = Position::START;
        for &mv in moves {
            replayed = replayed.play(mv).expect("witness moves are legal");
        }
        assert_eq!(replayed, *position, "the witness reaches the position");
    }
    Ok(Reach {
        witness,
        nodes: search.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;
    use rand::{rngs::SmallRng, SeedableRng};

    #[test]
    fn positions_of_games_are_reachable_and_broken_ones_are_not() {
        let frontier = Frontier::new(10).unwrap();
        let never = AtomicBool::new(false);
        for seed in 0..20 {
            let game = Game::random(&mut SmallRng::seed_from_u64(seed), 60);
            for p in game.positions.iter().take(20) {
                let found = reach(&frontier, p, 1 << 20, u64::MAX, &never).unwrap();
                assert!(found.witness.is_some(), "seed {seed}");
            }
        }
        // White to move at the start; an empty centre square.
        let white_start = Position {
            board: Board::START,
            side: engine::Color::White,
        };
        assert_eq!(
            reach(&frontier, &white_start, 1 << 20, u64::MAX, &never)
                .unwrap()
                .witness,
            None
        );
        let hole = Position {
            board: Board::new(
                Board::START.player & !(1 << 27) | 1 << 19,
                Board::START.opponent,
            ),
            side: engine::Color::Black,
        };
        assert_eq!(
            reach(&frontier, &hole, 1 << 20, u64::MAX, &never)
                .unwrap()
                .witness,
            None
        );
    }
}
