//! Speed of the core: flips (fast, table-free, naive), move generation and perft, each
//! compiled for every instruction set this CPU runs, side by side in one run; and the
//! cost of one evaluation, hand-made against trained.
//!
//! `cargo bench -p engine --bench core`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use engine::cpu::Isa;
use engine::eval::features;
use engine::eval::{Evaluation, Features, HandEval, PatternEval};
use engine::{isa_dispatch, isa_versions, reference, wordops, Board, Game};
use rand::{rngs::SmallRng, SeedableRng};
use std::hint::black_box;
use std::sync::Arc;

/// (board, square) pairs for every legal move in 40 random games (in L2 cache).
fn sample_moves() -> Vec<(Board, u32)> {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut sample = Vec::new();
    for _ in 0..40 {
        for position in Game::random(&mut rng, 60).positions {
            for sq in position.board.legal_moves() {
                sample.push((position.board, sq.index() as u32));
            }
        }
    }
    sample
}

isa_versions!(
    fn fast_flips(sample: &[(Board, u32)]) -> u64 {
        sample.iter().fold(0, |acc, (b, sq)| {
            acc ^ engine::flip::flip(*sq as usize, b.player, b.opponent)
        })
    }

    fn table_free_flips(sample: &[(Board, u32)]) -> u64 {
        sample.iter().fold(0, |acc, (b, sq)| {
            acc ^ wordops::flip(1 << sq, b.player, b.opponent)
        })
    }

    fn move_generation(sample: &[(Board, u32)]) -> u64 {
        sample.iter().fold(0, |acc, (b, _)| acc ^ b.moves())
    }

    /// Every child of every position evaluated, each read afresh.
    fn children_read(eval: &PatternEval, boards: &[Board]) -> i32 {
        boards.iter().fold(0, |acc, b| {
            engine::Bitboard(b.moves()).fold(acc, |acc, sq| {
                let child = b.play_flips(sq, flip(sq.index(), b.player, b.opponent));
                acc ^ eval.evaluate(&child)
            })
        })
    }

    /// [`children_read`] with the children's features updated from their parent's.
    fn children_updated(eval: &PatternEval, boards: &[Board]) -> i32 {
        boards.iter().fold(0, |acc, b| {
            let features = Features::of(b);
            engine::Bitboard(b.moves()).fold(acc, |acc, sq| {
                let flipped = flip(sq.index(), b.player, b.opponent);
                let child = b.play_flips(sq, flipped);
                acc ^ eval.evaluate_features(&child, &features.after_move(sq.index(), flipped))
            })
        })
    }
);

/// [`engine::flip::flip_avx2`], with the features it needs (this CPU must have them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn avx2_flips(sample: &[(Board, u32)]) -> u64 {
    let mut acc = 0;
    for (b, sq) in sample {
        acc ^= engine::flip::flip_avx2(*sq as usize, b.player, b.opponent);
    }
    acc
}

fn flips(c: &mut Criterion) {
    let sample = sample_moves();
    let mut group = c.benchmark_group("flip");
    group.throughput(Throughput::Elements(sample.len() as u64));
    #[cfg(target_arch = "x86_64")]
    if Isa::X86_64V3.runs_here() {
        group.bench_function("avx2", |b| {
            // SAFETY: the CPU has the features (x86-64-v3, detected just above).
            b.iter(|| unsafe { avx2_flips(black_box(&sample)) })
        });
    }
    for isa in Isa::available() {
        let id = |name: &str| BenchmarkId::new(name, format!("{isa:?}"));
        group.bench_function(id("fast"), |b| {
            b.iter(|| isa_dispatch!(isa, fast_flips(black_box(&sample))))
        });
        group.bench_function(id("table-free"), |b| {
            b.iter(|| isa_dispatch!(isa, table_free_flips(black_box(&sample))))
        });
        group.bench_function(id("moves"), |b| {
            b.iter(|| isa_dispatch!(isa, move_generation(black_box(&sample))))
        });
    }
    let few = &sample[..];
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function("naive", |b| {
        b.iter(|| {
            few.iter().fold(0, |acc, (b, sq)| {
                acc ^ reference::flips(b.player, b.opponent, *sq)
            })
        })
    });
    group.finish();
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_005_288));
    for isa in Isa::available() {
        group.bench_function(BenchmarkId::new("depth 9", format!("{isa:?}")), |b| {
            b.iter(|| engine::perft::perft_with(isa, black_box(&Board::START), 9))
        });
    }
    group.finish();
}

/// One evaluation of every position of 40 random games (the endgame solver evaluates
/// children for ordering at 14 and more empties, so its cost matters there).
fn evaluation(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(7);
    let boards: Vec<Board> = (0..40)
        .flat_map(|_| Game::random(&mut rng, 60).positions)
        .map(|p| p.board)
        .collect();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    let evals: [(&str, Arc<dyn Evaluation>); 2] = [
        ("hand", Arc::new(HandEval)),
        ("trained", PatternEval::embedded()),
    ];
    for (name, eval) in evals {
        group.bench_function(name, |b| {
            b.iter(|| {
                boards
                    .iter()
                    .fold(0, |acc, board| acc ^ eval.evaluate(black_box(board)))
            })
        });
    }
    // Reading the features alone, without the weights: what reading them incrementally
    // on make/unmake (Edax's way) could save at most.
    group.bench_function("trained features only", |b| {
        b.iter(|| {
            boards.iter().fold(0, |acc, board| {
                acc ^ features(black_box(board)).iter().fold(0, |a, &i| a ^ i)
            })
        })
    });
    // Children of each position: read afresh, or updated from the parent's features.
    let trained = PatternEval::embedded();
    let children: usize = boards.iter().map(|b| b.moves().count_ones() as usize).sum();
    group.throughput(Throughput::Elements(children as u64));
    for isa in Isa::available() {
        group.bench_function(BenchmarkId::new("children read", format!("{isa:?}")), |b| {
            b.iter(|| isa_dispatch!(isa, children_read(&trained, black_box(&boards))))
        });
        group.bench_function(
            BenchmarkId::new("children updated", format!("{isa:?}")),
            |b| b.iter(|| isa_dispatch!(isa, children_updated(&trained, black_box(&boards)))),
        );
    }
    group.finish();
}

criterion_group!(benches, flips, perft, evaluation);
criterion_main!(benches);
