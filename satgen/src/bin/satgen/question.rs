//! The question every command builds: "N legal moves within P plies" or "can a legal
//! game reach this position", from the command line.

use engine::cli::Failure;
use satgen::{Cube, Encoding, Question, SideFilter};

#[derive(clap::Args)]
pub(crate) struct QuestionArgs {
    /// At least this many legal moves for the side to move at some position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64),
          required_unless_present = "target", conflicts_with = "target")]
    mobility: Option<u32>,
    /// Instead: can a legal game (real rules: forced passes, any number of them) reach
    /// exactly this position? An OBF line (board and side to move) or a move list.
    #[arg(long, allow_hyphen_values = true)]
    target: Option<String>,
    /// With --target: games without a pass only (a formula half the size; UNSAT then
    /// says nothing of games with passes).
    // (`conflicts_with = "mobility"` as well: clap checks `requires` only when no
    // argument in conflict with it is present.)
    #[arg(long, requires = "target", conflicts_with_all = ["no_passes_before", "mobility"])]
    no_passes: bool,
    /// With --target: games without a pass before this step (move) only.
    #[arg(
        long,
        requires = "target",
        conflicts_with = "mobility",
        value_name = "STEP"
    )]
    no_passes_before: Option<usize>,
    /// With --target: games with exactly one pass, just before this step (move), only:
    /// the side whose turn it is there has no legal move (where the target needs an odd
    /// number of passes, the part `retro check` tries first).
    #[arg(
        long,
        requires = "target",
        conflicts_with_all = ["no_passes", "no_passes_before", "mobility"],
        value_name = "STEP"
    )]
    single_pass_before: Option<usize>,
    /// Plies from the start (a pass is a ply).
    #[arg(long, default_value_t = 42, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
    /// Whose move it must be at that position.
    #[arg(long, value_enum, default_value_t = SideFilter::Any)]
    side: SideFilter,
    /// Do not fix the first move to f5.
    #[arg(long)]
    no_symmetry_break: bool,
    /// How the rules become clauses: chains along rays, or the core's table-free word
    /// operations bit-blasted.
    #[arg(long, value_enum, default_value_t = Encoding::Rays)]
    encoding: Encoding,
    /// Only the position after exactly --plies plies counts (not any up to it).
    #[arg(long)]
    exact_ply: bool,
}

/// The two kinds of question satgen builds.
pub(crate) enum Asked {
    Mobility(Question),
    Target(engine::Position, Cube),
}

impl QuestionArgs {
    pub(crate) fn asked(&self) -> Result<Asked, Failure> {
        match &self.target {
            Some(text) => {
                let target = engine::input::parse_any_position("--target", text)?;
                // Step j is the (j+1)-th placement: a pass before step `steps` or later
                // would fall after the game reached the target.
                let steps = ((target.board.player | target.board.opponent).count_ones() as usize)
                    .saturating_sub(4);
                if let Some(step) = self.single_pass_before.filter(|&k| k >= steps) {
                    return Err(Failure::Input(format!(
                        "--single-pass-before {step}: the target is {steps} moves from the start (steps 0-{})",
                        steps.saturating_sub(1)
                    )));
                }
                Ok(Asked::Target(
                    target,
                    Cube {
                        first_move: None,
                        no_passes_before: if self.no_passes {
                            usize::MAX
                        } else {
                            self.no_passes_before.unwrap_or(0)
                        },
                        single_pass_before: self.single_pass_before,
                    },
                ))
            }
            None => Ok(Asked::Mobility(self.question())),
        }
    }

    /// The mobility question (`--mobility` given).
    fn question(&self) -> Question {
        Question {
            plies: self.plies as usize,
            mobility: self.mobility.unwrap_or_default() as usize,
            side: self.side,
            symmetry_break: !self.no_symmetry_break,
            encoding: self.encoding,
            exact_ply: self.exact_ply,
        }
    }
}
