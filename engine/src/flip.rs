//! The fast flip used by search: per square, the four lines through it split into the part
//! above and the part below the square; the first non-opponent square on each part is found
//! with one bit trick (lowest set bit above, leading-zero count below) and, if it holds a
//! player disc, the opponent discs before it flip.
//!
//! Portable `u64` code: with `lzcnt` available (see `cpu`) it compiles to about 60
//! branch-free instructions and one 64-byte table row. `wordops::flip` is the table-free twin;
//! tests hold both equal to `reference::flips`.

/// The squares of the four lines through a square: `up[d]` beyond it in increasing index
/// order, `down[d]` below it. Line order: rank, file, a1-h8 diagonal, h1-a8 diagonal.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Rays {
    up: [u64; 4],
    down: [u64; 4],
}

static RAYS: [Rays; 64] = rays_table();

const fn rays_table() -> [Rays; 64] {
    // (file step, rank step) for each line, pointing to higher indices.
    const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut table = [Rays {
        up: [0; 4],
        down: [0; 4],
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = STEPS[d];
            let mut sign = 0;
            while sign < 2 {
                let (df, dr) = if sign == 0 { (df, dr) } else { (-df, -dr) };
                let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
                let mut ray = 0u64;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    ray |= 1 << (r * 8 + f);
                    f += df;
                    r += dr;
                }
                if sign == 0 {
                    table[sq as usize].up[d] = ray;
                } else {
                    table[sq as usize].down[d] = ray;
                }
                sign += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The discs flipped when the side with discs `p` plays on the empty square `sq` (< 64)
/// against discs `o`. Zero means the move is illegal.
#[inline(always)]
pub fn flip(sq: usize, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq & 63];
    let mut flipped = 0;
    for d in 0..4 {
        // Above: the lowest non-opponent square of the ray.
        let stop = !o & rays.up[d];
        let outflank = stop & stop.wrapping_neg() & p;
        flipped |= outflank.wrapping_sub((outflank != 0) as u64) & rays.up[d];
        // Below: the highest non-opponent square (`| 1` keeps the count below 64; `& stop`
        // removes that bit again when the ray has no stop).
        let stop = !o & rays.down[d];
        let outflank = (1u64 << 63 >> (stop | 1).leading_zeros()) & stop & p;
        flipped |= (outflank << 1).wrapping_neg() & rays.down[d];
    }
    flipped
}

/// [`flip`] with the four lines in the four 64-bit lanes of AVX2 registers (as Edax's
/// AVX2 flip): about half the instructions. Below the square, where a lowest-bit trick
/// does not apply, the non-opponent squares are spread downwards by variable shifts so
/// that only the nearest player disc survives as the outflank.
///
/// # Safety
///
/// The CPU must have AVX2: callers not compiled with it check first (as `isa_dispatch!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flip_avx2(sq: usize, p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS[sq & 63];
    // SAFETY: `Rays` is 64-byte aligned: `up` and `down` are 32-byte aligned [u64; 4].
    let (up, down) = unsafe {
        (
            _mm256_load_si256(rays.up.as_ptr().cast()),
            _mm256_load_si256(rays.down.as_ptr().cast()),
        )
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // The line steps, in `RAYS`' line order: rank, file, a1-h8, h1-a8.
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let step2 = _mm256_set_epi64x(14, 18, 16, 2);

    // Above: the lowest non-opponent square; if it is ours, the squares before it flip.
    let stop = _mm256_andnot_si256(oo, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), pp);
    // All ones when there is no outflank (nothing flips), else the bits from it upwards.
    let beyond = _mm256_sub_epi64(_mm256_cmpeq_epi64(outflank, zero), outflank);
    let flipped_up = _mm256_andnot_si256(beyond, up);

    // Below: each of our discs one step towards the square is a candidate outflank; a
    // non-opponent square erases the candidates at and below it (up to 5 steps: enough
    // for a line of 7 squares).
    let mut outflank = _mm256_sllv_epi64(_mm256_and_si256(pp, down), step);
    let mut eraser = _mm256_andnot_si256(oo, down);
    eraser = _mm256_or_si256(eraser, _mm256_srlv_epi64(eraser, step));
    outflank = _mm256_andnot_si256(eraser, outflank);
    eraser = _mm256_srlv_epi64(eraser, step2);
    outflank = _mm256_andnot_si256(eraser, outflank);
    outflank = _mm256_andnot_si256(_mm256_srlv_epi64(eraser, step2), outflank);
    // The squares of the line from the outflank up to the played square, exclusive.
    let flipped_down = _mm256_and_si256(down, _mm256_sub_epi64(zero, outflank));

    let flipped = _mm256_or_si256(flipped_up, flipped_down);
    let half = _mm_or_si128(
        _mm256_castsi256_si128(flipped),
        _mm256_extracti128_si256(flipped, 1),
    );
    (_mm_cvtsi128_si64(half) | _mm_extract_epi64(half, 1)) as u64
}

/// `FLIPS_ON_LINE[i][line]`: discs flipped along one line of 8 squares by playing its
/// square `i` when the player holds the squares of `line` and the opponent every other
/// one (squares past the end of a short diagonal count as opponent discs: a run reaching
/// them is never bracketed, as on the board).
static FLIPS_ON_LINE: [[u8; 256]; 8] = flips_on_line_table();

const fn flips_on_line_table() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            let mut run = 0;
            let mut j = i + 1;
            while j < 8 && line >> j & 1 == 0 {
                run += 1;
                j += 1;
            }
            if j < 8 {
                count += run;
            }
            run = 0;
            let mut j = i as i32 - 1;
            while j >= 0 && line >> j & 1 == 0 {
                run += 1;
                j -= 1;
            }
            if j >= 0 {
                count += run;
            }
            table[i][line] = count as u8;
            line += 1;
        }
        i += 1;
    }
    table
}

/// The four lines through each square as masks: rank, file, a1-h8 and h1-a8 diagonals.
static LINES: [[u64; 4]; 64] = lines_table();

const fn lines_table() -> [[u64; 4]; 64] {
    let mut table = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let rays = RAYS[sq];
        let mut d = 0;
        while d < 4 {
            table[sq][d] = rays.up[d] | rays.down[d] | 1 << sq;
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The number of discs flipped when the side with discs `p` plays the last empty square
/// `sq` (every other square belongs to the opponent): the last move of a game, counted
/// without making it. Equal to `flip(sq, p, !p & !(1 << sq)).count_ones()`.
#[inline(always)]
pub fn last_flip_count(sq: usize, p: u64) -> u32 {
    let sq = sq & 63;
    let (file, rank) = (sq % 8, sq / 8);
    let lines = &LINES[sq];
    // Each line gathered into a byte indexed by file (rank for the file line).
    let rank_bits = (p >> (8 * rank)) as u8;
    let file_bits =
        (((p >> file) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diag_bits = ((p & lines[2]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    let anti_bits = ((p & lines[3]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    (FLIPS_ON_LINE[file][rank_bits as usize]
        + FLIPS_ON_LINE[rank][file_bits as usize]
        + FLIPS_ON_LINE[file][diag_bits as usize]
        + FLIPS_ON_LINE[file][anti_bits as usize]) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_of_corners_and_centre() {
        // a1: rank b1..h1, file a2..a8, diagonal b2..h8; nothing below.
        assert_eq!(RAYS[0].up[0], 0xfe);
        assert_eq!(RAYS[0].up[1], 0x0101_0101_0101_0100);
        assert_eq!(RAYS[0].up[2], 0x8040_2010_0804_0200);
        assert_eq!(RAYS[0].up[3], 0);
        assert_eq!(RAYS[0].down, [0; 4]);
        // h1: the anti-diagonal g2..a8 is above it.
        assert_eq!(RAYS[7].up[3], 0x0102_0408_1020_4000);
        // every ray of d4, up and down, covers 27 squares in all.
        let total: u32 = RAYS[27]
            .up
            .iter()
            .chain(&RAYS[27].down)
            .map(|r| r.count_ones())
            .sum();
        assert_eq!(total, 27);
    }

    /// The next state of a xorshift generator (random boards for the tests).
    fn xorshift(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    #[test]
    fn last_flip_count_equals_counting_the_flip() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            xorshift(&mut x);
            let sq = (x >> 58) as usize;
            let p = x.rotate_left(17) & !(1 << sq);
            let expected = flip(sq, p, !p & !(1 << sq)).count_ones();
            assert_eq!(last_flip_count(sq, p), expected, "square {sq}, p {p:#x}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_flip_equals_flip() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..500_000 {
            xorshift(&mut x);
            let sq = (x >> 58) as usize;
            // Dense and sparse boards alike: runs of every length on every line.
            let occupied = (x.rotate_left(23) | x.rotate_left(41)) & !(1 << sq);
            let p = occupied & x.rotate_left(7);
            let o = occupied & !p;
            // SAFETY: the CPU has AVX2 (checked above).
            let fast = unsafe { flip_avx2(sq, p, o) };
            assert_eq!(fast, flip(sq, p, o), "square {sq}, p {p:#x}, o {o:#x}");
        }
    }

    #[test]
    fn start_position_flips() {
        let (black, white) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        assert_eq!(flip(37, black, white), 1 << 36); // f5 flips e5
        assert_eq!(flip(19, black, white), 1 << 27); // d3 flips d4
        assert_eq!(flip(0, black, white), 0);
    }
}
