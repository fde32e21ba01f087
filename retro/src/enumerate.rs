//! Forward enumeration of the distinct positions (board and side to move) reachable from
//! the start, level by level: by plies (A124005's convention: a forced pass is a ply) or by
//! discs on the board (passes folded into the move before them; only positions where the
//! side to move has a legal move, the convention of the "Othello is Solved" count).
//!
//! The start position is fixed by four of the eight symmetries, and the rules commute with
//! all of them, so the reachable positions are closed under those four: a level is stored
//! as one representative per orbit under them (about a quarter of the positions), and the
//! true count is the sum of the orbit sizes. Counts up to all eight symmetries come from a
//! second pass over the representatives. Levels larger than the memory budget live in
//! sorted temporary files.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::LazyLock;

use engine::seal::{self, format_checksum, Seal};
use engine::{Bitboard, Board, Color, Position};
use rayon::prelude::*;

use crate::sorted::{board, damaged, key, SetBuilder, SortedSet};

/// How levels are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// Level n: positions after exactly n plies (a forced pass is a ply).
    Plies,
    /// Level n: positions with n discs where the side to move has a legal move.
    Discs,
}

/// The symmetries (as `Board::symmetry` numbers) that fix the start position.
pub static START_SYMMETRIES: LazyLock<Vec<u32>> = LazyLock::new(|| {
    (0..8)
        .filter(|&k| Board::START.symmetry(k) == Board::START)
        .collect()
});

/// The least image of `board` under the symmetries fixing the start.
pub fn reduce(board: &Board) -> Board {
    START_SYMMETRIES
        .iter()
        .map(|&k| board.symmetry(k))
        .min()
        .expect("the identity fixes the start")
}

/// How many distinct positions `board` stands for (its images under those symmetries).
pub fn orbit_size(board: &Board) -> u64 {
    // An array, not a vector: this runs for every position of a level (billions at ply 14),
    // where an allocation each was a tenth of the count's time.
    let mut images: [Board; 4] = std::array::from_fn(|i| board.symmetry(START_SYMMETRIES[i]));
    images.sort_unstable();
    1 + images.windows(2).filter(|pair| pair[0] != pair[1]).count() as u64
}

/// Side to move as an index: 0 black, 1 white.
pub type Side = usize;

/// The [`Side`] of `color`.
pub fn side_index(color: Color) -> Side {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The positions that follow `board` (side `side` to move) one level later.
pub fn successors(convention: Convention, board: &Board, side: Side) -> Vec<(Board, Side)> {
    let moves = board.moves();
    match convention {
        Convention::Plies => {
            if moves != 0 {
                Bitboard(moves)
                    .map(|sq| (board.play(sq).expect("legal"), 1 - side))
                    .collect()
            } else if board.pass().moves() != 0 {
                vec![(board.pass(), 1 - side)]
            } else {
                Vec::new()
            }
        }
        Convention::Discs => Bitboard(moves)
            .filter_map(|sq| {
                let child = board.play(sq).expect("legal");
                if child.moves() != 0 {
                    Some((child, 1 - side))
                } else if child.pass().moves() != 0 {
                    Some((child.pass(), side))
                } else {
                    None
                }
            })
            .collect(),
    }
}

/// How a level is built.
pub struct Build<'a> {
    /// Keys held in memory at once (both sides to move together).
    pub limit: usize,
    /// Where spilled runs and the level's files go (the system's temporary directory
    /// without): the directory a level is then saved in, so that saving moves no data.
    pub dir: Option<&'a Path>,
    /// Only the positions of this partition (index from 0, count) of the next level.
    pub partition: Option<(usize, usize)>,
    /// Raised by a signal: the build stops with an `Interrupted` error.
    pub stop: &'a AtomicBool,
    /// Called with the number of positions of this level expanded, chunk by chunk.
    pub done: &'a (dyn Fn(usize) + Sync),
}

/// Writes `value` sealed with its checksum to `path`, through a temporary name: a run
/// killed while writing leaves the old file or none, never half of one.
fn write_sealed(path: &Path, value: serde_json::Value) -> io::Result<()> {
    let serde_json::Value::Object(mut object) = value else {
        unreachable!("a record is an object")
    };
    seal::seal(&mut object);
    seal::write_whole(
        path,
        |file| writeln!(file, "{}", serde_json::Value::Object(object)),
        |e| e,
    )
}

fn level_name(convention: Convention, number: u32) -> String {
    match convention {
        Convention::Plies => format!("plies-{number}"),
        Convention::Discs => format!("discs-{number}"),
    }
}

/// The squares in classes under the eight symmetries: the four corners, the eight squares
/// next to them on the edges, and so on (ten classes).
static SQUARE_CLASSES: LazyLock<Vec<u64>> = LazyLock::new(|| {
    let mut classes: Vec<u64> = (0..64)
        .map(|sq| (0..8).fold(0, |class, k| class | engine::board::symmetry(1 << sq, k)))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
});

/// Which of `count` partitions a position falls in: a hash of how many discs of each side
/// stand in each class of squares under the symmetries. It does not change under the
/// symmetries nor with the side to move, so a class of positions (and every board counted
/// as one up to symmetry) lies whole in one partition, and the partitions' counts add up
/// to the level's; it costs twenty popcounts, far less than finding the least image.
pub fn partition(board: &Board, count: usize) -> usize {
    let (mut player, mut opponent) = (0u64, 0u64);
    for (i, class) in SQUARE_CLASSES.iter().enumerate() {
        player |= ((board.player & class).count_ones() as u64) << (4 * i);
        opponent |= ((board.opponent & class).count_ones() as u64) << (4 * i);
    }
    (Board::new(player, opponent).hash() % count as u64) as usize
}

/// One level: orbit representatives with black to move, and with white to move.
pub struct Level {
    /// Plies or discs, as the convention counts.
    pub number: u32,
    /// The representatives by side to move ([`Side`]).
    pub sets: [SortedSet; 2],
}

/// What a level holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LevelCount {
    /// The level's number.
    pub level: u32,
    /// Distinct positions (board and side to move).
    pub positions: u64,
    /// Distinct boards from the side to move up to the eight symmetries, when asked for.
    pub canonical: Option<u64>,
}

pub(crate) const CHUNK: usize = 1 << 16;

impl Level {
    /// The first level: the start position (4 discs, or ply 0).
    pub fn start(convention: Convention) -> Level {
        Level {
            number: match convention {
                Convention::Plies => 0,
                Convention::Discs => 4,
            },
            sets: [
                SortedSet::Memory(vec![key(&Board::START)]),
                SortedSet::Memory(Vec::new()),
            ],
        }
    }

    /// The next level, holding at most `limit` keys in memory at once per side.
    pub fn next(&self, convention: Convention, limit: usize) -> io::Result<Level> {
        self.next_in(convention, limit, None)
    }

    /// [`Level::next`], built in `dir` where given (its spilled runs there) and saved
    /// there ([`Level::save`]), where [`Level::load_latest`] finds it.
    pub fn next_in(
        &self,
        convention: Convention,
        limit: usize,
        dir: Option<&Path>,
    ) -> io::Result<Level> {
        let level = self.build_next(
            convention,
            &Build {
                limit,
                dir,
                partition: None,
                stop: &AtomicBool::new(false),
                done: &|_| (),
            },
        )?;
        match dir {
            Some(dir) => level.save(dir, convention),
            None => Ok(level),
        }
    }

    /// The next level (or one partition of it) built as `build` says; an error of kind
    /// `Interrupted` at the next chunk of positions once `build.stop` is raised: a level
    /// can take hours.
    pub fn build_next(&self, convention: Convention, build: &Build) -> io::Result<Level> {
        let mut builders = [
            SetBuilder::new_in(build.limit / 2, build.dir),
            SetBuilder::new_in(build.limit / 2, build.dir),
        ];
        for (side, set) in self.sets.iter().enumerate() {
            let mut result = Ok(());
            set.for_each_chunk(CHUNK, |chunk| {
                if result.is_ok() && build.stop.load(Relaxed) {
                    result = Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
                }
                if result.is_err() {
                    return;
                }
                let children: Vec<(Side, u128)> = chunk
                    .par_iter()
                    .flat_map_iter(|&k| successors(convention, &board(k), side))
                    .filter(|(child, _)| {
                        build
                            .partition
                            .is_none_or(|(index, count)| partition(child, count) == index)
                    })
                    .map(|(child, side)| (side, key(&reduce(&child))))
                    .collect();
                for (side, k) in children {
                    if result.is_ok() {
                        result = builders[side].extend([k]);
                    }
                }
                (build.done)(chunk.len());
            })?;
            result?;
        }
        let [black, white] = builders;
        Ok(Level {
            number: self.number + 1,
            sets: [black.finish()?, white.finish()?],
        })
    }

    /// Keeps the level in `dir` (a file per side to move, then `<level>.json` saying it
    /// is whole), where [`Level::load_latest`] finds it. The manifest, sealed with its own
    /// checksum, gives each file's count and checksum and the command that made it.
    pub fn save(self, dir: &Path, convention: Convention) -> io::Result<Level> {
        let name = level_name(convention, self.number);
        let [black, white] = self.sets;
        let sets = [
            black.save(&dir.join(format!("{name}-black.keys")))?,
            white.save(&dir.join(format!("{name}-white.keys")))?,
        ];
        let manifest = serde_json::json!({
            "level": self.number,
            "convention": convention,
            "black": sets[0].len(),
            "white": sets[1].len(),
            "black_checksum": format_checksum(sets[0].checksum()),
            "white_checksum": format_checksum(sets[1].checksum()),
            "command": seal::command_line(),
            "version": env!("CARGO_PKG_VERSION"),
        });
        write_sealed(&dir.join(format!("{name}.json")), manifest)?;
        Ok(Level {
            number: self.number,
            sets,
        })
    }

    /// The level's count, taken from `dir` where an earlier call left one made the
    /// same way (classes up to symmetry or not) of the same files, else counted and left
    /// there: runs that resume from a saved level (the shards of the next one) do not
    /// count it again. A count file that was changed or damaged is an error naming it.
    pub fn count_in(
        &self,
        dir: &Path,
        convention: Convention,
        canonical: bool,
        limit: usize,
        stop: &AtomicBool,
    ) -> io::Result<LevelCount> {
        let path = dir.join(format!(
            "{}-count.json",
            level_name(convention, self.number)
        ));
        let checksums = self.sets.each_ref().map(|s| format_checksum(s.checksum()));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| damaged(path.display(), format!("not JSON ({e})")))?;
            match seal::check_seal(&value) {
                Seal::Broken => {
                    return Err(damaged(
                        path.display(),
                        "it does not match its checksum (remove it to count the level again)"
                            .into(),
                    ))
                }
                // Written before counts were sealed: counted again, never trusted.
                Seal::Absent => {}
                Seal::Whole => {
                    let saved = serde_json::from_value::<LevelCount>(value.clone())
                        .map_err(|e| damaged(path.display(), e.to_string()))?;
                    let same_files = value["black_checksum"] == checksums[0]
                        && value["white_checksum"] == checksums[1];
                    if saved.level == self.number
                        && saved.canonical.is_some() == canonical
                        && same_files
                    {
                        return Ok(saved);
                    }
                }
            }
        }
        let count = self.count_until(canonical, limit, stop)?;
        let mut record = serde_json::to_value(count).map_err(io::Error::other)?;
        record["black_checksum"] = checksums[0].clone().into();
        record["white_checksum"] = checksums[1].clone().into();
        write_sealed(&path, record)?;
        Ok(count)
    }

    /// The highest whole level of `convention` saved in `dir`, at most `at_most`, read
    /// whole once to check it against its manifest: a file that was changed, cut or
    /// damaged is an error naming it (remove the level's files to build it again from
    /// the one before).
    pub fn load_latest(
        dir: &Path,
        convention: Convention,
        at_most: u32,
    ) -> io::Result<Option<Level>> {
        let first = Level::start(convention).number;
        for number in (first..=at_most).rev() {
            let name = level_name(convention, number);
            let path = dir.join(format!("{name}.json"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let rebuild = format!("remove {}/{name}* to build it again", dir.display());
            let manifest: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| damaged(path.display(), format!("not JSON ({e}); {rebuild}")))?;
            match seal::check_seal(&manifest) {
                Seal::Whole => {}
                Seal::Absent => {
                    return Err(damaged(
                        path.display(),
                        format!("written before level files carried checksums; {rebuild}"),
                    ))
                }
                Seal::Broken => {
                    return Err(damaged(
                        path.display(),
                        format!("it does not match its checksum; {rebuild}"),
                    ))
                }
            }
            if manifest["level"] != number
                || manifest["convention"] != serde_json::json!(convention)
            {
                return Err(damaged(
                    path.display(),
                    format!("it describes another level; {rebuild}"),
                ));
            }
            let side = |colour: &str| -> io::Result<SortedSet> {
                let len = manifest[colour].as_u64();
                let checksum = manifest[format!("{colour}_checksum")]
                    .as_str()
                    .and_then(seal::parse_checksum);
                let (Some(len), Some(checksum)) = (len, checksum) else {
                    return Err(damaged(
                        path.display(),
                        format!("no count or checksum of the {colour} file; {rebuild}"),
                    ));
                };
                let set = SortedSet::open(
                    &dir.join(format!("{name}-{colour}.keys")),
                    len as usize,
                    checksum,
                )
                .and_then(|set| set.verify().map(|()| set))
                .map_err(|e| io::Error::new(e.kind(), format!("{e}; {rebuild}")))?;
                Ok(set)
            };
            let sets = [side("black")?, side("white")?];
            return Ok(Some(Level { number, sets }));
        }
        Ok(None)
    }

    /// The positions of the level, and with `canonical` the boards as the side to move
    /// sees them (player, opponent: colours dropped) up to the eight symmetries, the
    /// convention of the published count of 2,958,551 positions with 14 discs.
    pub fn count(&self, canonical: bool, limit: usize) -> io::Result<LevelCount> {
        self.count_until(canonical, limit, &AtomicBool::new(false))
    }

    /// [`Level::count`], given up (an error of kind `Interrupted`) at the next chunk of
    /// positions once `stop` is raised: with classes up to symmetry, a level of billions
    /// of positions is sorted once more.
    pub fn count_until(
        &self,
        canonical: bool,
        limit: usize,
        stop: &AtomicBool,
    ) -> io::Result<LevelCount> {
        let mut positions = 0;
        let mut canon = SetBuilder::new(limit);
        let mut result = Ok(());
        for set in &self.sets {
            set.for_each_chunk(CHUNK, |chunk| {
                if result.is_ok() && stop.load(Relaxed) {
                    result = Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
                }
                if result.is_err() {
                    return;
                }
                positions += chunk
                    .par_iter()
                    .map(|&k| orbit_size(&board(k)))
                    .sum::<u64>();
                if canonical && result.is_ok() {
                    let keys: Vec<u128> = chunk
                        .par_iter()
                        .map(|&k| key(&board(k).canonical()))
                        .collect();
                    result = canon.extend(keys);
                }
            })?;
        }
        result?;
        let classes = if canonical {
            Some(canon.finish()?.len() as u64)
        } else {
            None
        };
        Ok(LevelCount {
            level: self.number,
            positions,
            canonical: classes,
        })
    }

    /// The positions of this level (by plies) whose side to move has no legal move while
    /// the other side has one, reached without an earlier pass (`number + 4` discs): every
    /// place where a game's first pass can fall after `number` moves. All of them, not one
    /// per orbit, sorted.
    pub fn first_passes(&self) -> io::Result<Vec<Position>> {
        let mut found = Vec::new();
        self.for_each(|b, side| {
            let discs = (b.player | b.opponent).count_ones();
            if discs == self.number + 4 && b.moves() == 0 && b.pass().moves() != 0 {
                let side = if side == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                for &k in START_SYMMETRIES.iter() {
                    found.push(Position {
                        board: b.symmetry(k),
                        side,
                    });
                }
            }
        })?;
        found.sort_unstable_by_key(|p| (p.side == Color::White, p.board));
        found.dedup();
        Ok(found)
    }

    /// Calls `f` on every representative with its side to move.
    pub fn for_each(&self, mut f: impl FnMut(&Board, Side)) -> io::Result<()> {
        for (side, set) in self.sets.iter().enumerate() {
            set.for_each_chunk(CHUNK, |chunk| {
                chunk.iter().for_each(|&k| f(&board(k), side))
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_stop_interrupts_the_next_level() {
        let level = Level::start(Convention::Plies);
        let build = Build {
            limit: 1 << 20,
            dir: None,
            partition: None,
            stop: &AtomicBool::new(true),
            done: &|_| (),
        };
        let err = level
            .build_next(Convention::Plies, &build)
            .err()
            .expect("stopped");
        assert_eq!(err.kind(), io::ErrorKind::Interrupted);
        let counted = level.count_until(true, 1 << 20, &AtomicBool::new(true));
        assert_eq!(
            counted.err().map(|e| e.kind()),
            Some(io::ErrorKind::Interrupted)
        );
    }

    #[test]
    fn four_symmetries_fix_the_start() {
        assert_eq!(START_SYMMETRIES.len(), 4);
        assert_eq!(orbit_size(&Board::START), 1);
    }

    /// The first passes of plies 0-10 against every game of up to 10 moves walked without
    /// the levels: the same positions, none before ply 8.
    #[test]
    fn first_passes_are_those_of_every_game() {
        fn walk(board: Board, moves: usize, found: &mut [Vec<Position>]) {
            if moves == found.len() {
                return;
            }
            let legal = board.moves();
            if legal == 0 {
                if board.pass().moves() != 0 {
                    let side = if moves % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    found[moves].push(Position { board, side });
                }
                return;
            }
            for sq in Bitboard(legal) {
                walk(board.play(sq).expect("legal"), moves + 1, found);
            }
        }
        let mut walked = vec![Vec::new(); 11];
        walk(Board::START, 0, &mut walked);
        let mut level = Level::start(Convention::Plies);
        for (ply, positions) in walked.iter_mut().enumerate() {
            if ply > 0 {
                level = level.next(Convention::Plies, 1 << 24).unwrap();
            }
            positions.sort_unstable_by_key(|p| (p.side == Color::White, p.board));
            positions.dedup();
            assert_eq!(level.first_passes().unwrap(), *positions, "ply {ply}");
        }
        let counts: Vec<usize> = walked.iter().map(Vec::len).collect();
        assert_eq!(counts, [0, 0, 0, 0, 0, 0, 0, 0, 24, 0, 364]);
    }

    #[test]
    fn first_plies_match_a124005_with_and_without_spilling() {
        for limit in [2048, 1 << 20] {
            let mut level = Level::start(Convention::Plies);
            let mut counts = vec![level.count(true, limit).unwrap()];
            for _ in 0..6 {
                level = level.next(Convention::Plies, limit).unwrap();
                counts.push(level.count(true, limit).unwrap());
            }
            let positions: Vec<u64> = counts.iter().map(|c| c.positions).collect();
            assert_eq!(positions, [1, 4, 12, 54, 236, 1288, 7092]);
            assert_eq!(counts[1].canonical, Some(1));
            assert_eq!(counts[2].canonical, Some(3));
        }
    }
}
