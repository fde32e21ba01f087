//! Perft from the start position against the published counts (OEIS A124004), by the
//! hashed, split count the `perft` command runs and by the plain recursion.

use std::sync::atomic::AtomicBool;

use engine::cpu::Isa;
use engine::perft::{perft_with, CountTable, Split};
use engine::Board;

/// Leaves at depths 1-13 (games that ended sooner not among them).
const LEAVES: [u64; 13] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571056,
    212258216,
    1939879668,
    18429618408,
];

#[test]
fn published_counts_to_depth_13() {
    let table = CountTable::new(256);
    let stop = AtomicBool::new(false);
    let mut finished = 0;
    for (i, &expected) in LEAVES.iter().enumerate() {
        let depth = i as u32 + 1;
        let counts = Split::new(&Board::START, depth, 6)
            .count(&table, &stop, &|| ())
            .expect("not stopped");
        assert_eq!(counts.leaves, expected, "depth {depth}");
        assert!(
            counts.finished >= finished,
            "finished games only accumulate"
        );
        finished = counts.finished;
        // A124004 counts a game that ended early as a leaf.
        let games = counts.leaves + counts.finished;
        match depth {
            10 => assert_eq!(games, 24_571_284),
            11 => assert_eq!(games, 212_258_800),
            12 => assert_eq!(games, 1_939_886_636),
            13 => assert_eq!(games, 18_429_641_748),
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
