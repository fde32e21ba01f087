//! The largest mobility (legal moves of the side to move) over the positions reachable
//! within a number of plies, by brute force over the enumerated levels, with a witness
//! game found by walking back through the levels and replayed forward by the core.

use std::cmp::Reverse;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use engine::board::neighbours;
use engine::cpu::Isa;
use engine::{isa_dispatch, isa_versions, Bitboard, Board, Move, Position, Square};
use rayon::prelude::*;

use crate::enumerate::{partition, reduce, Convention, Level, Side, CHUNK};
use crate::sorted::{board, key};
use crate::unmove::unmoves;

/// The largest mobility within a number of plies, with a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxMobility {
    /// The plies searched (at most).
    pub plies: u32,
    /// The largest number of legal moves of the side to move met.
    pub mobility: u32,
    /// A game from the start reaching a position with that mobility (the side to move of
    /// its last position has `mobility` legal moves).
    pub witness: Vec<Move>,
    /// That position.
    pub position: Position,
}

/// The largest mobility within `plies` plies, holding at most `limit` keys in memory per
/// level being built.
pub fn max_mobility(plies: u32, limit: usize) -> io::Result<MaxMobility> {
    let levels = levels(plies, limit, None)?;
    let mut best = (Board::START.mobility(), 0usize, Board::START, 0 as Side);
    for (ply, level) in levels.iter().enumerate() {
        level.for_each(|b, side| {
            let m = b.mobility();
            if m > best.0 {
                best = (m, ply, *b, side);
            }
        })?;
    }
    let (mobility, found_at, target, side) = best;
    let (witness, position) = witness(&levels[..=found_at], target, side)?;
    assert_eq!(
        position.board.mobility(),
        mobility,
        "the witness reaches the mobility"
    );
    Ok(MaxMobility {
        plies,
        mobility,
        witness,
        position,
    })
}

/// The largest mobility after exactly one number of plies, over every position the
/// enumeration reaches there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyMaximum {
    /// Plies from the start (a pass is a ply).
    pub ply: usize,
    /// The most legal moves met there.
    pub mobility: u32,
    /// How every position after exactly `ply` plies was seen.
    pub coverage: Coverage,
    /// A game of exactly `ply` plies ending at a position with `mobility` moves.
    pub witness: Vec<Move>,
}

/// How a [`PlyMaximum`] saw every position of its ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Enumerated: this many distinct positions, up to the symmetries of the start.
    Positions(u64),
    /// Followed depth-first from every one of `from_positions` distinct positions (up to
    /// the start's symmetries) after exactly `from_ply` plies, or from those of partition
    /// `shard` = (I, N), 1-based, of them: `lines` continuations of exactly the remaining
    /// plies, transpositions included.
    Lines {
        /// The level followed from.
        from_ply: usize,
        /// Its positions followed.
        from_positions: u64,
        /// Continuations followed.
        lines: u64,
        /// The partition (I, N) followed, if not all.
        shard: Option<(usize, usize)>,
    },
    /// A beam search's best: at every ply before, at most `width` distinct positions (up
    /// to the start's symmetries) were kept ([`beam_by_ply`]), and every child of them was
    /// seen. A lower bound, not the maximum, unless no ply before was cut: then the row is
    /// [`Coverage::Positions`].
    Beam {
        /// Positions kept per ply.
        width: usize,
    },
}

/// For each ply from 0 to `plies`, the largest mobility after exactly that many plies
/// (a forced pass is a ply), by brute force, each with its witness. The distinct positions
/// are enumerated up to `enumerated` plies; beyond, every line of play is followed
/// depth-first from each position of the last enumerated level, which needs no memory
/// (a maximum needs no deduplication) and costs a line per transposition: the levels grow
/// about 7x a ply, the lines about 11x. `progress` is called with the number of the last
/// level's positions just followed and their total; raising `stop` ends the search with
/// an error of kind `Interrupted`. With `shard` = (I, N), 1-based, only the positions of
/// the last enumerated level in partition I of N ([`partition`]) are followed, so that N
/// runs share the work and their rows merge (the maximum of the parts, the lines added
/// up); the rows of the enumerated plies, the same in every part, come with part 1 only.
/// With `keep`, the enumerated levels are read from that directory where saved
/// there, and saved there where built.
pub fn max_mobility_by_ply(
    plies: u32,
    enumerated: u32,
    shard: Option<(usize, usize)>,
    limit: usize,
    keep: Option<&Path>,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> io::Result<Vec<PlyMaximum>> {
    let levels = levels(plies.min(enumerated), limit, keep)?;
    let mut maxima = Vec::new();
    // The enumerated plies' rows are the same in every part: the first part gives them.
    let enumerated_rows = match shard {
        Some((i, _)) if i > 1 => 0,
        _ => levels.len(),
    };
    for (ply, level) in levels.iter().enumerate().take(enumerated_rows) {
        let mut best: Option<(u32, Board, Side)> = None;
        let mut positions = 0u64;
        level.for_each(|b, side| {
            positions += 1;
            if best.is_none_or(|(m, _, _)| b.mobility() > m) {
                best = Some((b.mobility(), *b, side));
            }
        })?;
        let Some((mobility, target, side)) = best else {
            return Ok(maxima);
        };
        let (witness, position) = witness(&levels[..=ply], target, side)?;
        assert_eq!(
            position.board.mobility(),
            mobility,
            "the witness reaches it"
        );
        maxima.push(PlyMaximum {
            ply,
            mobility,
            coverage: Coverage::Positions(positions),
            witness,
        });
    }
    let depth = plies.saturating_sub(enumerated) as usize;
    if depth == 0 {
        return Ok(maxima);
    }
    let from_ply = levels.len() - 1;
    let last = &levels[from_ply];
    let total: u64 = last.sets.iter().map(|s| s.len() as u64).sum();
    let mine = |k: u128| shard.is_none_or(|(i, n)| partition(&board(k), n) == i - 1);
    let mut found = Followed::new(depth);
    for (side, set) in last.sets.iter().enumerate() {
        let mut result = Ok(());
        set.for_each_chunk(CHUNK, |chunk| {
            if result.is_err() {
                return;
            }
            if stop.load(Relaxed) {
                result = Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
                return;
            }
            // Each fold starts from the best found so far, so that it skips from its first
            // position on.
            let floor = found.floor();
            let part = chunk
                .par_iter()
                .filter(|&&k| mine(k))
                .fold(
                    || floor.floor(),
                    |mut acc, &k| {
                        acc.follow_from(board(k), side);
                        acc
                    },
                )
                .reduce(|| Followed::new(depth), Followed::merge);
            found = std::mem::replace(&mut found, Followed::new(depth)).merge(part);
            progress(chunk.len() as u64, total);
        })?;
        result?;
    }
    for (d, (&(mobility, from, side), &lines)) in found.best.iter().zip(&found.lines).enumerate() {
        let Some(from) = from else {
            break;
        };
        let (mut moves, mut position) = witness(&levels, from, side)?;
        let rest = line_to_mobility(&position.board, d + 1, mobility)
            .expect("the representative's own image reaches the same mobility");
        for mv in rest {
            position = position.play(mv).expect("a legal move");
            moves.push(mv);
        }
        assert_eq!(
            position.board.mobility(),
            mobility,
            "the witness reaches it"
        );
        maxima.push(PlyMaximum {
            ply: from_ply + d + 1,
            mobility,
            coverage: Coverage::Lines {
                from_ply,
                from_positions: found.from_positions,
                lines,
                shard,
            },
            witness: moves,
        });
    }
    Ok(maxima)
}

/// For each ply from 0 to `plies`, a position with many legal moves after exactly that many
/// plies (a forced pass is a ply), with its witness, found by a beam search: each ply keeps
/// `width` distinct positions (up to the start's symmetries) and sees every child of them.
/// Half the beam are those with the most legal moves for both sides together (open for
/// both, so for whoever moves next); the other half, of the rest, those with the most
/// empty squares next to a disc, which keeps the lines where passes leave the board open
/// late (the best games of the late plies pass, results/maxmob-by-ply.md). Where the plies
/// before were never cut to `width`, the row is exact (every position seen,
/// [`Coverage::Positions`]); beyond, a lower bound with its witness ([`Coverage::Beam`]),
/// the starting point `satgen curve --witnesses` climbs from. `progress` is called after
/// each ply; raising `stop` ends the search with an error of kind `Interrupted`.
pub fn beam_by_ply(
    plies: u32,
    width: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn() + Sync),
) -> io::Result<Vec<PlyMaximum>> {
    struct Child {
        key: Board,
        /// The legal moves of its side to move.
        moves: u32,
        /// The legal moves of both sides together (the first half of the beam's order).
        rank: u32,
        room: u32,
        parent: u32,
        mv: Move,
        board: Board,
    }
    let width = width.max(1);
    let mut beam = vec![Board::START];
    // Per ply from 1: how each position of the beam was reached (its parent in the beam of
    // the ply before, and the move).
    let mut reached: Vec<Vec<(u32, Move)>> = Vec::new();
    let line = |reached: &[Vec<(u32, Move)>], mut index: u32| {
        let mut moves: Vec<Move> = reached
            .iter()
            .rev()
            .map(|step| {
                let (parent, mv) = step[index as usize];
                index = parent;
                mv
            })
            .collect();
        moves.reverse();
        moves
    };
    let mut maxima = vec![PlyMaximum {
        ply: 0,
        mobility: Board::START.mobility(),
        coverage: Coverage::Positions(1),
        witness: Vec::new(),
    }];
    let mut cut = false;
    for ply in 1..=plies as usize {
        if stop.load(Relaxed) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
        }
        let mut children: Vec<Child> = beam
            .par_iter()
            .enumerate()
            .flat_map_iter(|(parent, board)| {
                board.children().into_iter().map(move |(mv, child)| {
                    let moves = child.mobility();
                    Child {
                        key: reduce(&child),
                        moves,
                        rank: moves + child.pass().mobility(),
                        room: room(&child),
                        parent: parent as u32,
                        mv,
                        board: child,
                    }
                })
            })
            .collect();
        let Some(best) = children.iter().max_by_key(|c| c.moves) else {
            break;
        };
        let mut witness = line(&reached, best.parent);
        witness.push(best.mv);
        let mobility = best.moves;
        children.par_sort_unstable_by_key(|c| c.key);
        children.dedup_by_key(|c| c.key);
        let coverage = if cut {
            Coverage::Beam { width }
        } else {
            Coverage::Positions(children.len() as u64)
        };
        maxima.push(PlyMaximum {
            ply,
            mobility,
            coverage,
            witness,
        });
        if children.len() > width {
            cut = true;
            // Half the beam by moves, the other half of the rest by room; among equals the
            // smaller key, so that a run is repeatable.
            let by_moves = width.div_ceil(2);
            children.select_nth_unstable_by_key(by_moves - 1, |c| (Reverse(c.rank), c.key));
            let rest = &mut children[by_moves..];
            let by_room = width - by_moves;
            if by_room > 0 {
                rest.select_nth_unstable_by_key(by_room - 1, |c| (Reverse(c.room), c.key));
            }
            children.truncate(width);
        }
        reached.push(children.iter().map(|c| (c.parent, c.mv)).collect());
        beam = children.into_iter().map(|c| c.board).collect();
        progress();
    }
    Ok(maxima)
}

/// Empty squares next to a disc: where moves can come, for either side, once the discs
/// around them change colour.
fn room(board: &Board) -> u32 {
    let occupied = board.player | board.opponent;
    (neighbours(occupied) & !occupied).count_ones()
}

/// The best of the positions `1..=depth` plies after the representatives followed so far.
struct Followed {
    /// Per number of plies after the representative: the largest mobility, and the first
    /// representative (with its side to move) reaching it; `None` while no line is that
    /// long.
    best: Vec<(u32, Option<Board>, Side)>,
    /// Per number of plies: the lines of play of that length followed.
    lines: Vec<u64>,
    /// Representatives followed.
    from_positions: u64,
}

impl Followed {
    fn new(depth: usize) -> Followed {
        Followed {
            best: vec![(0, None, 0); depth],
            lines: vec![0; depth],
            from_positions: 0,
        }
    }

    /// The best so far and nothing counted: where another search starts, so that it
    /// skips what cannot beat what is already found.
    fn floor(&self) -> Followed {
        Followed {
            best: self.best.clone(),
            ..Followed::new(self.best.len())
        }
    }

    fn follow_from(&mut self, from: Board, side: Side) {
        self.from_positions += 1;
        let depth = self.best.len();
        let (mut most, mut lines) = ([0u32; MAX_FOLLOWED], [0u64; MAX_FOLLOWED]);
        for (m, best) in most.iter_mut().zip(&self.best) {
            *m = best.0;
        }
        isa_dispatch!(
            Isa::detect(),
            follow(&from, &mut most[..depth], &mut lines[..depth])
        );
        for ((best, total), (&m, &n)) in self
            .best
            .iter_mut()
            .zip(&mut self.lines)
            .zip(most.iter().zip(&lines))
        {
            *total += n;
            if n > 0 && (best.1.is_none() || m > best.0) {
                *best = (m, Some(from), side);
            }
        }
    }

    /// Both together; on ties the representative of `self` (the earlier ones) is kept.
    fn merge(mut self, other: Followed) -> Followed {
        for (best, theirs) in self.best.iter_mut().zip(other.best) {
            if best.1.is_none() || (theirs.1.is_some() && theirs.0 > best.0) {
                *best = theirs;
            }
        }
        for (lines, theirs) in self.lines.iter_mut().zip(other.lines) {
            *lines += theirs;
        }
        self.from_positions += other.from_positions;
        self
    }
}

/// Plies a line is followed beyond the last enumerated level, at most (each is about 11x
/// the time of the one before).
pub const MAX_FOLLOWED: usize = 8;

isa_versions!(
    /// Raises `most[d]` to the mobility of each position `d + 1` plies after `board` and
    /// counts those positions in `lines[d]` (a forced pass is a ply; a finished game has no
    /// successors, as in [`crate::enumerate::successors`]). `most` may start at the best
    /// found elsewhere: the last ply's positions that cannot beat it are counted without
    /// their moves being generated. Compiled per instruction set: nearly all its time is
    /// the last ply's flips and move counts.
    fn follow(board: &Board, most: &mut [u32], lines: &mut [u64]) -> () {
        let (Some((first, deeper)), Some((counted, deeper_lines))) =
            (most.split_first_mut(), lines.split_first_mut())
        else {
            return;
        };
        let moves = board.moves();
        // (More than 32 moves is more than any reachable position has, 33 being the most;
        // the general case below takes it.)
        if deeper.is_empty() && moves != 0 && moves.count_ones() <= 32 {
            // The children are the last ply, where only their number and largest mobility
            // matter. Each move of a child's side to move is an empty square next to a
            // disc of the side that just moved (its discs before, the one placed, the
            // flipped ones), so a child with no more such squares than `most[0]` cannot
            // raise it: it is counted without its moves being generated. Kept free of
            // branches (the test is a coin toss for the predictor), the children that can
            // are made afterwards.
            let occupied = board.player | board.opponent;
            let (mut squares, mut flips) = ([Square::A1; 32], [0u64; 32]);
            let mut kept = 0;
            for sq in Bitboard(moves) {
                let f = flip(sq.index(), board.player, board.opponent);
                (squares[kept], flips[kept]) = (sq, f);
                let near = neighbours(board.player | sq.bit() | f) & !(occupied | sq.bit());
                kept += usize::from(near.count_ones() > *first);
            }
            *counted += u64::from(moves.count_ones());
            for (&sq, &f) in squares[..kept].iter().zip(&flips[..kept]) {
                *first = (*first).max(board.play_flips(sq, f).mobility());
            }
            return;
        }
        let mut visit = |child: Board| {
            *first = (*first).max(child.mobility());
            *counted += 1;
            follow(&child, deeper, deeper_lines);
        };
        if moves != 0 {
            for sq in Bitboard(moves) {
                visit(board.play_flips(sq, flip(sq.index(), board.player, board.opponent)));
            }
        } else if board.pass().moves() != 0 {
            visit(board.pass());
        }
    }
);

/// Moves of exactly `plies` plies from `board` to a position with `mobility` legal moves,
/// if there are any.
fn line_to_mobility(board: &Board, plies: usize, mobility: u32) -> Option<Vec<Move>> {
    if plies == 0 {
        return (board.mobility() == mobility).then(Vec::new);
    }
    board.children().into_iter().find_map(|(mv, child)| {
        let mut line = line_to_mobility(&child, plies - 1, mobility)?;
        line.insert(0, mv);
        Some(line)
    })
}

/// The levels after 0 to `plies` plies. With `keep`, a directory of levels (as `retro
/// enumerate --plies N --levels DIR` keeps them): a level saved there is read instead of
/// built, and a level built is saved there, so that the runs that follow lines from one
/// deep level (the shards of the next plies) enumerate it once.
fn levels(plies: u32, limit: usize, keep: Option<&Path>) -> io::Result<Vec<Level>> {
    let mut levels = vec![Level::start(Convention::Plies)];
    for ply in 1..=plies {
        let saved = keep
            .map(|dir| Level::load_latest(dir, Convention::Plies, ply))
            .transpose()?
            .flatten();
        let level = match saved {
            Some(saved) if saved.number == ply => saved,
            _ => levels
                .last()
                .expect("the start")
                .next_in(Convention::Plies, limit, keep)?,
        };
        levels.push(level);
    }
    Ok(levels)
}

/// A game from the start to `target` (with `side` to move) in the last of `levels`:
/// representatives walked back level by level, then replayed forward by the core, each
/// move the one whose result reduces to the next representative. The representatives one
/// level back are those of the unmoves of the next one (a symmetry of the start maps the
/// unmoves of a position onto those of its image), looked up in the level's sorted keys:
/// a few binary searches where a scan of the level would cost a pass over every position.
fn witness(levels: &[Level], target: Board, side: Side) -> io::Result<(Vec<Move>, Position)> {
    let mut chain = vec![(target, side)];
    for level in levels[..levels.len() - 1].iter().rev() {
        let (next, next_side) = *chain.last().expect("the target");
        let mut previous = None;
        for unmove in unmoves(&next, next_side) {
            let before = reduce(&unmove.board);
            if level.sets[unmove.side].contains(key(&before))? {
                previous = Some((before, unmove.side));
                break;
            }
        }
        chain.push(previous.expect("every representative has a predecessor"));
    }
    chain.reverse();
    let mut position = Position::START;
    let mut moves = Vec::new();
    for &(next, _) in &chain[1..] {
        let board = position.board;
        let mv = if board.moves() == 0 {
            Move::Pass
        } else {
            engine::Bitboard(board.moves())
                .map(Move::Play)
                .find(|&mv| position.play(mv).is_ok_and(|p| reduce(&p.board) == next))
                .expect("a move to the next representative")
        };
        position = position.play(mv).expect("a legal move");
        moves.push(mv);
    }
    Ok((moves, position))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A witness walks back through a pass as through a move: every position of the
    /// levels to ply 9 where the side that did not move has no move (so it may follow a
    /// pass) gets a game that replays to an image of it, and some of those games end
    /// with the pass.
    #[test]
    fn witnesses_walk_back_through_passes() {
        let levels = levels(9, 1 << 20, None).unwrap();
        let mut after_pass = Vec::new();
        for (ply, level) in levels.iter().enumerate().skip(1) {
            level
                .for_each(|b, side| {
                    if b.pass().moves() == 0 && b.moves() != 0 {
                        after_pass.push((ply, *b, side));
                    }
                })
                .unwrap();
        }
        let mut passes = 0;
        for &(ply, board, side) in &after_pass {
            let (moves, position) = witness(&levels[..=ply], board, side).unwrap();
            assert_eq!(moves.len(), ply);
            assert_eq!(reduce(&position.board), board);
            assert_eq!(crate::enumerate::side_index(position.side), side);
            passes += usize::from(moves.last() == Some(&Move::Pass));
        }
        assert!(passes > 0, "{} positions, no pass", after_pass.len());
    }

    #[test]
    fn matches_a_plain_search_and_the_witness_replays() {
        for plies in 0..=6 {
            let found = max_mobility(plies, 1 << 16).unwrap();
            assert_eq!(
                found.mobility,
                engine::reference::max_mobility(&Board::START, plies),
                "{plies} plies"
            );
            assert!(found.witness.len() <= plies as usize);
            let mut p = Position::START;
            for &mv in &found.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p, found.position);
            assert_eq!(p.board.mobility(), found.mobility);
        }
    }

    /// The largest mobility after exactly P plies (variant rules: a pass only without a
    /// move), by a plain search.
    fn exactly(board: &Board, plies: u32) -> u32 {
        match (plies, board.moves()) {
            (0, _) => board.mobility(),
            (_, 0) if board.pass().moves() == 0 => 0,
            (_, 0) => exactly(&board.pass(), plies - 1),
            (_, moves) => engine::Bitboard(moves)
                .map(|sq| exactly(&board.play(sq).expect("legal"), plies - 1))
                .max()
                .unwrap_or(0),
        }
    }

    /// Every compiled version of `follow` that this CPU runs gives the plain search's
    /// maxima and perft's counts, from the start and from late positions of random games,
    /// where passes are common, also when it starts from nearly the maxima (and so skips
    /// most of the last ply).
    #[test]
    fn each_version_of_follow_matches_a_plain_search_and_perft() {
        let mut boards = vec![Board::START];
        boards.extend(
            crate::sample::random_game_positions(54, 40, 7)
                .iter()
                .map(|p| p.board),
        );
        let mut passes = 0;
        for isa in Isa::available() {
            for board in &boards {
                let (mut most, mut lines) = ([0u32; 4], [0u64; 4]);
                isa_dispatch!(isa, follow(board, &mut most, &mut lines));
                // Started from the maxima less one, as a search that found them elsewhere
                // but for one move: it must find the last move, and count the same lines.
                let mut below = most.map(|m| m.saturating_sub(1));
                let mut seeded_lines = [0u64; 4];
                isa_dispatch!(isa, follow(board, &mut below, &mut seeded_lines));
                for d in 0..4 {
                    let counts = engine::perft::perft(board, d as u32 + 1);
                    passes += counts.passes;
                    assert_eq!(lines[d], counts.leaves, "{isa:?} {board:?} {d}");
                    assert_eq!(seeded_lines[d], counts.leaves, "{isa:?} {board:?} {d}");
                    let exact = exactly(board, d as u32 + 1);
                    assert_eq!((most[d], below[d]), (exact, exact), "{isa:?} {board:?} {d}");
                }
            }
        }
        assert!(passes > 0, "no line with a pass was followed");
    }

    fn by_ply(plies: u32, enumerated: u32) -> Vec<PlyMaximum> {
        let stop = AtomicBool::new(false);
        max_mobility_by_ply(plies, enumerated, None, 1 << 16, None, &stop, &|_, _| ()).unwrap()
    }

    #[test]
    fn by_ply_matches_a_plain_search_and_each_witness_replays() {
        let enumerated = by_ply(7, 7);
        let followed = by_ply(7, 3);
        assert_eq!(enumerated.len(), 8);
        assert_eq!(followed.len(), 8);
        for (m, f) in enumerated.iter().zip(&followed) {
            assert_eq!((f.ply, f.mobility), (m.ply, m.mobility));
            assert_eq!(f.coverage == m.coverage, m.ply <= 3, "ply {}", m.ply);
        }
        for m in enumerated.iter().chain(&followed) {
            assert_eq!(
                m.mobility,
                exactly(&Board::START, m.ply as u32),
                "ply {}",
                m.ply
            );
            assert_eq!(m.witness.len(), m.ply);
            let mut p = Position::START;
            for &mv in &m.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p.board.mobility(), m.mobility);
        }
        // A124005 up to symmetry begins 1, 1, 3, 14, 60.
        let counts: Vec<Coverage> = enumerated[..5].iter().map(|m| m.coverage).collect();
        assert_eq!(counts, [1, 1, 3, 14, 60].map(Coverage::Positions));
        // From the 14 positions after 3 plies (up to symmetry), the lines of 1 and 2 more
        // plies: perft 1 and 2 from each of those representatives.
        let lines = |ply: usize| match followed[ply].coverage {
            Coverage::Lines {
                from_ply: 3,
                from_positions: 14,
                lines,
                shard: None,
            } => lines,
            other => panic!("ply {ply}: {other:?}"),
        };
        let plain = |plies: u32| -> u64 {
            let level = levels(3, 1 << 16, None).unwrap().pop().unwrap();
            let mut n = 0;
            level
                .for_each(|b, _| n += engine::perft::perft(b, plies).leaves)
                .unwrap();
            n
        };
        assert_eq!(lines(4), plain(1));
        assert_eq!(lines(5), plain(2));
    }

    /// The beam: exact, and equal to the enumeration, up to the first ply cut to its width
    /// (60 positions after 4 plies, 322 after 5); lower bounds after, each witness a game of
    /// its ply reaching its count; the same rows again on a second run; a raised stop ends
    /// it.
    #[test]
    fn beam_is_exact_until_cut_and_a_lower_bound_after() {
        let stop = AtomicBool::new(false);
        let exact = by_ply(8, 8);
        let beam = beam_by_ply(8, 100, &stop, &|| ()).unwrap();
        assert_eq!(beam.len(), 9);
        for (b, e) in beam.iter().zip(&exact) {
            assert_eq!(b.ply, e.ply);
            if b.ply <= 5 {
                assert_eq!(
                    (b.mobility, b.coverage),
                    (e.mobility, e.coverage),
                    "ply {}",
                    b.ply
                );
            } else {
                assert_eq!(b.coverage, Coverage::Beam { width: 100 });
                assert!(b.mobility <= e.mobility, "ply {}", b.ply);
            }
            assert_eq!(b.witness.len(), b.ply);
            let mut p = Position::START;
            for &mv in &b.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p.board.mobility(), b.mobility, "ply {}", b.ply);
        }
        // A width of one is the greedy line, which falls short at ply 8.
        let greedy = beam_by_ply(8, 1, &stop, &|| ()).unwrap();
        assert!(greedy[8].mobility < exact[8].mobility);
        assert_eq!(beam, beam_by_ply(8, 100, &stop, &|| ()).unwrap());
        stop.store(true, Relaxed);
        let stopped = beam_by_ply(8, 100, &stop, &|| ()).unwrap_err();
        assert_eq!(stopped.kind(), io::ErrorKind::Interrupted);
    }
}
