//! Games in GGF, the format of GGS and the NBoard protocol:
//! `(;GM[Othello]PB[..]PW[..]TY[8]BO[8 <64 squares> <side>]B[F5//1.5]W[D6]...;)`,
//! squares `-` empty, `*` black, `O` white, side `*` or `O`; moves `B[..]`/`W[..]` with
//! optional `/eval/time` after the move, `PA` a pass.

use std::time::Duration;

use crate::game::Game;
use crate::position::{Color, Move, Position};

/// The time each player has left, from a GGF game with a time limit (`TI`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Black's time left.
    pub black: Duration,
    /// White's time left.
    pub white: Duration,
}

impl Clock {
    /// The time `color` has left.
    pub fn left(&self, color: Color) -> Duration {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Takes `seconds` (ignored unless finite and positive) from `color`'s clock.
    pub fn spend(&mut self, color: Color, seconds: f64) {
        if seconds.is_finite() && seconds > 0.0 {
            let spent = Duration::from_secs_f64(seconds);
            let left = match color {
                Color::Black => &mut self.black,
                Color::White => &mut self.white,
            };
            *left = left.saturating_sub(spent);
        }
    }
}

/// The games of a GGF file, each with the line it starts on: a game runs from `(;` to the
/// next `;)`, and several may share a line (as in GGS archives). Text outside games is
/// ignored. A game without its `;)` (a file cut off, a download stopped) is an error with
/// its line, never a shorter game or one dropped.
pub fn split_games(text: &str) -> Result<Vec<(usize, &str)>, (usize, String)> {
    let mut games = Vec::new();
    let mut at = 0;
    while let Some(open) = text[at..].find("(;").map(|i| at + i) {
        let line = 1 + text[..open].matches('\n').count();
        let end = text[open + 2..]
            .find(";)")
            .map(|i| open + 2 + i + 2)
            .ok_or_else(|| {
                (
                    line,
                    "a game without its end `;)` (the file cut off?)".to_string(),
                )
            })?;
        games.push((line, &text[open..end]));
        at = end;
    }
    Ok(games)
}

/// The game a GGF text describes: its start position and moves, replayed by the rules.
pub fn parse(text: &str) -> Result<Game, String> {
    parse_with_clock(text).map(|(game, _)| game)
}

/// [`parse`], and the clock when the game has a time limit: `TI[m:ss]` (also `h:mm:ss`
/// or seconds) for each player, less the times of the player's moves (`B[F5//1.5]`).
pub fn parse_with_clock(text: &str) -> Result<(Game, Option<Clock>), String> {
    let mut start: Option<Position> = None;
    let mut moves: Vec<(Color, Move)> = Vec::new();
    let mut limit: Option<f64> = None;
    let mut used = [0.0f64; 2];
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let name_start = rest[..open]
            .rfind(|c: char| !c.is_ascii_uppercase())
            .map_or(0, |i| i + 1);
        let name = &rest[name_start..open];
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| format!("property {name} is not closed"))?
            + open;
        let value = rest[open + 1..close].trim();
        match name {
            "BO" => start = Some(parse_board(value)?),
            "TI" => limit = Some(parse_time(value)?),
            "B" | "W" => {
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let mut fields = value.split('/');
                let text = fields.next().unwrap_or("").trim();
                let mv = if text.eq_ignore_ascii_case("pass") {
                    Move::Pass
                } else {
                    text.parse::<Move>()
                        .map_err(|_| format!("{name}[{value}]: not a move"))?
                };
                if let Some(time) = fields.nth(1).map(str::trim).filter(|t| !t.is_empty()) {
                    used[(color == Color::White) as usize] += time
                        .parse::<f64>()
                        .ok()
                        .filter(|t| t.is_finite() && *t >= 0.0)
                        .ok_or_else(|| format!("{name}[{value}]: time {time:?}"))?;
                }
                moves.push((color, mv));
            }
            _ => {}
        }
        rest = &rest[close + 1..];
    }
    let clock = limit.map(|limit| {
        let left = |used: f64| Duration::from_secs_f64((limit - used).max(0.0));
        Clock {
            black: left(used[0]),
            white: left(used[1]),
        }
    });
    let start = start.ok_or("no board (BO[...])")?;
    let mut game = Game {
        positions: vec![start],
        moves: Vec::new(),
    };
    for (i, (color, mv)) in moves.into_iter().enumerate() {
        let here = *game.last();
        if here.side != color {
            // GGF leaves forced passes out.
            if !here.board.must_pass() {
                return Err(format!("move {} ({mv}): {color:?} is not to move", i + 1));
            }
            game.play(Move::Pass).expect("a forced pass");
        }
        game.play(mv)
            .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
    }
    Ok((game, clock))
}

/// `game` as one GGF game (the inverse of [`parse`]): the players' names, black's final
/// disc difference as the result when the game is over, the first position and the moves;
/// passes are left out, as GGF leaves forced passes out.
pub fn format(game: &Game, black: &str, white: &str) -> String {
    let first = game.positions[0];
    let (b, w) = first.discs();
    let squares: String = (0..64)
        .map(|i| match (b >> i & 1, w >> i & 1) {
            (1, _) => '*',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect();
    let side = |c: Color| if c == Color::Black { "*" } else { "O" };
    let mut text = format!("(;GM[Othello]PB[{black}]PW[{white}]");
    let last = game.last();
    if last.board.is_game_over() {
        let score = match last.side {
            Color::Black => last.board.final_score(),
            Color::White => -last.board.final_score(),
        };
        text += &format!("RE[{score:+}]");
    }
    text += &format!("TY[8]BO[8 {squares} {}]", side(first.side));
    for (position, mv) in game.positions.iter().zip(&game.moves) {
        if *mv != Move::Pass {
            let name = if position.side == Color::Black {
                "B"
            } else {
                "W"
            };
            text += &format!("{name}[{mv}]");
        }
    }
    text + ";)"
}

/// Seconds from `m:ss`, `h:mm:ss` or `s`; anything after a `/` (GGS increments) is
/// ignored.
fn parse_time(value: &str) -> Result<f64, String> {
    let main = value.split('/').next().unwrap_or("").trim();
    let mut seconds = 0.0;
    for part in main.split(':') {
        let n: f64 = part
            .trim()
            .parse()
            .ok()
            .filter(|n: &f64| n.is_finite() && *n >= 0.0)
            .ok_or_else(|| format!("TI[{value}]: not a time"))?;
        seconds = seconds * 60.0 + n;
    }
    Ok(seconds)
}

fn parse_board(value: &str) -> Result<Position, String> {
    let mut fields = value.split_whitespace();
    if fields.next() != Some("8") {
        return Err(format!("BO[{value}]: only 8x8 boards"));
    }
    let squares: String = fields.by_ref().take_while(|f| f.len() != 1).collect();
    let side = value.split_whitespace().last().unwrap_or("");
    let (mut black, mut white) = (0u64, 0u64);
    if squares.chars().count() != 64 {
        return Err(format!("BO[{value}]: expected 64 squares"));
    }
    for (i, c) in squares.chars().enumerate() {
        match c {
            '*' | 'X' | 'x' => black |= 1 << i,
            'O' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            _ => return Err(format!("BO[{value}]: square {c:?}")),
        }
    }
    let side = match side {
        "*" | "X" | "x" => Color::Black,
        "O" | "o" => Color::White,
        _ => return Err(format!("BO[{value}]: side to move {side:?}")),
    };
    Ok(Position::from_colors(black, white, side))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    #[test]
    fn start_and_moves() {
        let game = parse(&format!(
            "(;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]{START}B[F5//1.2]W[d6/-0.5];)"
        ))
        .unwrap();
        assert_eq!(game.positions[0], Position::START);
        assert_eq!(game.moves, ["f5".parse().unwrap(), "d6".parse().unwrap()]);
        assert_eq!(game.last().side, Color::Black);
    }

    #[test]
    fn format_is_the_inverse_of_parse() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for plies in [0, 1, 20, 70] {
            let game = Game::random(&mut rng, plies);
            let text = format(&game, "a", "b");
            assert_eq!(parse(&text).unwrap(), game, "{text}");
            assert_eq!(split_games(&text).unwrap(), [(1, text.as_str())]);
            // Over, the game says black's final disc difference.
            let last = game.last();
            assert_eq!(last.board.is_game_over(), text.contains("RE["), "{text}");
        }
        let text = format(&Game::replay(Position::START, "f5d6").unwrap(), "x", "y");
        assert_eq!(
            text,
            format!("(;GM[Othello]PB[x]PW[y]TY[8]{START}B[f5]W[d6];)")
        );
    }

    #[test]
    fn clock_is_the_limit_less_each_players_moves() {
        let text = format!("(;TI[5:00]{START}B[F5//1.5]W[d6/-0.5/2.25]B[c3//10];)");
        let (game, clock) = parse_with_clock(&text).unwrap();
        assert_eq!(game.moves.len(), 3);
        let clock = clock.unwrap();
        assert_eq!(clock.left(Color::Black), Duration::from_secs_f64(288.5));
        assert_eq!(clock.left(Color::White), Duration::from_secs_f64(297.75));
        assert_eq!(parse_time("1:02:03").unwrap(), 3723.0);
        assert_eq!(parse_time("90//30").unwrap(), 90.0);
        assert!(parse_time("5:xx").is_err());
        assert_eq!(parse_with_clock(&format!("(;{START};)")).unwrap().1, None);
        assert!(parse_with_clock(&format!("(;TI[1:00]{START}B[F5//-3];)")).is_err());
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(parse("(;GM[Othello];)").unwrap_err().contains("no board"));
        assert!(parse(&format!("(;{START}B[A1];)"))
            .unwrap_err()
            .contains("move 1"));
        assert!(parse(&format!("(;{START}W[F5];)"))
            .unwrap_err()
            .contains("not to move"));
        assert!(parse("(;BO[8 --- *];)").unwrap_err().contains("64 squares"));
        assert!(parse(&format!("(;{START}B[F5"))
            .unwrap_err()
            .contains("not closed"));
    }

    #[test]
    fn games_of_a_file_are_split_with_their_lines() {
        let text =
            "% archive\n(;GM[Othello]BO[8 x]B[f5];) (;GM[Othello]\nB[d3];)\n\n(;GM[Othello];)";
        let games = split_games(text).unwrap();
        let lines: Vec<usize> = games.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [2, 2, 5]);
        assert_eq!(games[1].1, "(;GM[Othello]\nB[d3];)");
        assert!(games
            .iter()
            .all(|(_, g)| g.starts_with("(;") && g.ends_with(";)")));
        // The last game cut off between its moves: an error at its line, not a game less.
        let cut = "(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5]W[d6]";
        let (line, error) = split_games(cut).unwrap_err();
        assert_eq!(line, 2);
        assert!(error.contains("cut off"), "{error}");
    }
}
