//! The rules walked square by square: slow, obvious, and the oracle every fast routine is
//! tested against.

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Discs flipped when the side with discs `p` plays on the empty square `sq` against `o`.
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    assert!(
        sq < 64 && (p | o) >> sq & 1 == 0,
        "square {sq} is not empty"
    );
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut flipped = 0;
    for (df, dr) in DIRECTIONS {
        let mut run = 0u64;
        let (mut f, mut r) = (file + df, rank + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    flipped |= run;
                }
                break;
            }
            f += df;
            r += dr;
        }
    }
    flipped
}

/// Empty squares where playing flips at least one disc.
pub fn moves(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&sq| (p | o) >> sq & 1 == 0 && flips(p, o, sq) != 0)
        .fold(0, |acc, sq| acc | 1 << sq)
}
