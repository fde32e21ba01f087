//! The maximum after each exact number of plies: the levels enumerated, then every line
//! of play followed depth-first from the last of them.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use engine::Board;
use rayon::prelude::*;

use super::followed::{line_to_mobility, Followed};
use super::{levels, witness, Coverage, PlyMaximum};
use crate::enumerate::{partition, Side, CHUNK};
use crate::sorted::board;

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
