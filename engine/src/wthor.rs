//! WTHOR game databases (`.wtb`), the archive format of the Fédération Française d'Othello
//! that Edax's `-wtest` reads.
//!
//! A 16-byte header: creation date (century, year, month, day), the number of games
//! (u32 little-endian), a second count (u16, 0 in game files), the year of the games
//! (u16), the board size (0 or 8 for 8x8), the game type, the depth in empties from which
//! the theoretical scores were computed, and a reserved byte. Then 68 bytes per game:
//! tournament, black player and white player numbers (u16 each), black's discs at the
//! end, black's theoretical discs (perfect play from `depth` empties), and 60 move bytes
//! `10 * rank + file` (11 = a1, 88 = h8), 0 after the last move. Forced passes are not
//! recorded. Disc counts give the empty squares of an early end to the winner.

use crate::error::{ParseError, ParseErrorKind};
use crate::game::Game;
use crate::position::{Color, Move, Position};
use crate::square::Square;

const HEADER_BYTES: usize = 16;
const RECORD_BYTES: usize = 68;
const MOVES: usize = 60;

/// What the header says about the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Creation date: century, year in the century, month, day.
    pub created: [u8; 4],
    /// The year the games were played.
    pub year: u16,
    /// The empties from which the theoretical scores were computed (0: not given).
    pub depth: u8,
}

/// One game of the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tournament's number in WTHOR's list of tournaments.
    pub tournament: u16,
    /// Black's number in WTHOR's list of players.
    pub black_player: u16,
    /// White's number in the same list.
    pub white_player: u16,
    /// Black's discs at the end of the game as played.
    pub black_discs: u8,
    /// Black's discs with perfect play from the position with [`Header::depth`] empties.
    pub theoretical_black_discs: u8,
    /// The game from the start, forced passes included.
    pub game: Game,
}

/// Black's disc count in a record (empties counted for the winner) as the disc difference
/// for `side`, as the solvers score.
pub fn disc_difference(black_discs: u8, side: Color) -> i32 {
    let black = 2 * black_discs as i32 - 64;
    match side {
        Color::Black => black,
        Color::White => -black,
    }
}

/// Reads a database (`source` names it in errors: the game's number and what is wrong).
pub fn parse(source: &str, bytes: &[u8]) -> Result<(Header, Vec<Record>), ParseError> {
    let error = |game: Option<usize>, message: String| {
        let source = match game {
            Some(n) => format!("{source} game {n}"),
            None => source.to_string(),
        };
        ParseError::new(&source, 0, 0, ParseErrorKind::Io(message))
    };
    if bytes.len() < HEADER_BYTES {
        return Err(error(
            None,
            format!("{} bytes: not a WTHOR file (16-byte header)", bytes.len()),
        ));
    }
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let games = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
    let board_size = bytes[12];
    if board_size != 0 && board_size != 8 {
        return Err(error(
            None,
            format!("board size {board_size}: only 8x8 databases are read"),
        ));
    }
    let expected = games
        .checked_mul(RECORD_BYTES)
        .and_then(|b| b.checked_add(HEADER_BYTES));
    if expected != Some(bytes.len()) {
        return Err(error(
            None,
            format!(
                "{} bytes, but the header announces {games} games (16 + 68 each)",
                bytes.len()
            ),
        ));
    }
    let header = Header {
        created: bytes[0..4].try_into().expect("4 bytes"),
        year: u16_at(bytes, 10),
        depth: bytes[14],
    };
    let records = bytes[HEADER_BYTES..]
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, record)| {
            let game = replay(&record[8..]).map_err(|message| error(Some(i + 1), message))?;
            for (what, discs) in [("discs", record[6]), ("theoretical discs", record[7])] {
                if discs > 64 {
                    return Err(error(
                        Some(i + 1),
                        format!("black's {what} {discs}, over 64"),
                    ));
                }
            }
            Ok(Record {
                tournament: u16_at(record, 0),
                black_player: u16_at(record, 2),
                white_player: u16_at(record, 4),
                black_discs: record[6],
                theoretical_black_discs: record[7],
                game,
            })
        })
        .collect::<Result<_, ParseError>>()?;
    Ok((header, records))
}

/// The game of 60 move bytes, forced passes put back.
fn replay(moves: &[u8]) -> Result<Game, String> {
    let mut game = Game::replay(Position::START, "").expect("no moves");
    for (i, &byte) in moves.iter().enumerate() {
        if byte == 0 {
            if let Some(&later) = moves[i..].iter().find(|&&b| b != 0) {
                return Err(format!("move {}: {later} after the end (0)", i + 1));
            }
            break;
        }
        let (rank, file) = (byte / 10, byte % 10);
        if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
            return Err(format!(
                "move {}: byte {byte} is not a square (11..88)",
                i + 1
            ));
        }
        let sq = Square::from_coords((file - 1) as u32, (rank - 1) as u32).expect("on the board");
        if game.last().board.must_pass() && !game.last().board.is_game_over() {
            game.play(Move::Pass).expect("a forced pass");
        }
        game.play(Move::Play(sq))
            .map_err(|e| format!("move {} ({}): {e}", i + 1, Move::Play(sq)))?;
    }
    Ok(game)
}

/// The database as bytes ([`parse`]'s inverse for the games it reads).
pub fn write(header: &Header, records: &[Record]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER_BYTES + RECORD_BYTES * records.len());
    bytes.extend(header.created);
    bytes.extend((records.len() as u32).to_le_bytes());
    bytes.extend(0u16.to_le_bytes());
    bytes.extend(header.year.to_le_bytes());
    bytes.extend([8, 0, header.depth, 0]);
    for record in records {
        for number in [record.tournament, record.black_player, record.white_player] {
            bytes.extend(number.to_le_bytes());
        }
        bytes.extend([record.black_discs, record.theoretical_black_discs]);
        let mut moves: Vec<u8> = record
            .game
            .moves
            .iter()
            .filter_map(|mv| match mv {
                Move::Play(sq) => Some((sq.rank() * 10 + sq.file() + 11) as u8),
                Move::Pass => None,
            })
            .collect();
        moves.resize(MOVES, 0);
        bytes.extend(moves);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str) -> Record {
        Record {
            tournament: 7,
            black_player: 1,
            white_player: 2,
            black_discs: 40,
            theoretical_black_discs: 36,
            game: Game::replay(Position::START, moves).unwrap(),
        }
    }

    #[test]
    fn games_round_trip_with_their_passes() {
        let records = vec![record("f5d6c3d3c4f4f6f3e6e7"), record("f5f6e6f4e3")];
        let header = Header {
            created: [20, 26, 11, 24],
            year: 2026,
            depth: 22,
        };
        let bytes = write(&header, &records);
        assert_eq!(bytes.len(), 16 + 2 * 68);
        assert_eq!(bytes[16 + 8], 56, "f5 is rank 5, file 6");
        assert_eq!(parse("t.wtb", &bytes).unwrap(), (header, records));
    }

    #[test]
    fn a_pass_left_out_is_put_back() {
        // A game with a forced pass: replayed, then written without it and read back.
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3);
        let game = (0..)
            .map(|_| Game::random(&mut rng, 60))
            .find(|g| g.moves[..g.moves.len() - 1].contains(&Move::Pass))
            .unwrap();
        let header = Header {
            created: [0; 4],
            year: 0,
            depth: 0,
        };
        let records = vec![Record { game, ..record("") }];
        let (_, read) = parse("t.wtb", &write(&header, &records)).unwrap();
        assert_eq!(read, records);
    }

    #[test]
    fn errors_name_the_game_and_the_problem() {
        let header = Header {
            created: [0; 4],
            year: 0,
            depth: 24,
        };
        let mut bytes = write(&header, &[record("f5d6"), record("f5d6c3")]);
        bytes[16 + 68 + 9] = 11; // a1 as the second move of game 2
        let error = parse("t.wtb", &bytes).unwrap_err().to_string();
        assert!(error.starts_with("t.wtb game 2: move 2 (a1): "), "{error}");
        bytes[16 + 68 + 9] = 99;
        let error = parse("t.wtb", &bytes).unwrap_err().to_string();
        assert!(error.contains("byte 99 is not a square"), "{error}");
        let error = parse("t.wtb", &bytes[..100]).unwrap_err().to_string();
        assert!(error.contains("announces 2 games"), "{error}");
        bytes[16 + 68 + 9] = 0;
        let error = parse("t.wtb", &bytes).unwrap_err().to_string();
        assert!(error.contains("after the end"), "{error}");
        // A theoretical score beyond the board: the record is damaged, not an answer.
        let mut bytes = write(&header, &[record("f5d6"), record("f5d6c3")]);
        bytes[16 + 68 + 7] = 70;
        let error = parse("t.wtb", &bytes).unwrap_err().to_string();
        assert!(
            error.starts_with("t.wtb game 2: black's theoretical discs 70"),
            "{error}"
        );
    }
}
