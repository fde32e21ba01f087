//! Perft from the start position against the published counts (OEIS A124004).

use engine::cpu::Isa;
use engine::perft::{perft_parallel, perft_with};
use engine::Board;

const PUBLISHED: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056, 212258216,
];

#[test]
fn published_counts_to_depth_11() {
    let mut finished = 0;
    for (i, &expected) in PUBLISHED.iter().enumerate() {
        let depth = i as u32 + 1;
        let counts = perft_parallel(&Board::START, depth);
        assert_eq!(counts.leaves, expected, "depth {depth}");
        assert!(
            counts.finished >= finished,
            "finished games only accumulate"
        );
        finished = counts.finished;
        match depth {
            10 => assert_eq!(counts.leaves + counts.finished, 24_571_284),
            11 => assert_eq!(counts.leaves + counts.finished, 212_258_800),
            _ => {}
        }
    }
}

#[test]
fn every_instruction_set_counts_the_same() {
    for isa in Isa::available() {
        let counts = perft_with(isa, &Board::START, 10);
        assert_eq!(
            (counts.leaves, counts.finished),
            (24_571_056, 228),
            "{isa:?}"
        );
    }
}
