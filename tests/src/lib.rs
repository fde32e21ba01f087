//! Helpers shared by the cross-crate tests.

use engine::{Game, Position};
use rand::{rngs::SmallRng, SeedableRng};

/// The positions of a random game from the start (seeded, so failures reproduce).
pub fn random_game_positions(seed: u64) -> Vec<Position> {
    Game::random(&mut SmallRng::seed_from_u64(seed), 60).positions
}

/// The FFO endgame files shipped in `problems/`.
pub fn problem_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../problems")
        .join(name)
}

/// Runs `f` on a pool of `threads` threads (the searches split work when they have
/// several), whatever the machine's cores.
pub fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
