//! The proof-number arithmetic: a node's numbers from its children's (weak or summed),
//! the limits a child is searched under, the first numbers of a new node, and the choice
//! of the child to expand.

use engine::search::Bounds;

use super::{Aggregation, Child, HINT_MARGIN, INFINITE, LARGEST, MARGIN_RANGE};

/// The proof and disproof numbers of a node from its unsolved-or-not children.
pub(super) fn aggregate(aggregation: Aggregation, kids: &[Child]) -> (u32, u32) {
    let pn = kids.iter().map(|c| c.dn).min().expect("children");
    let open = kids.iter().filter(|c| c.pn != 0);
    let dn = match aggregation {
        Aggregation::Weak => open
            .clone()
            .map(|c| c.pn)
            .max()
            .map_or(0, |max| max.saturating_add(open.count() as u32 - 1)),
        Aggregation::Sum => open.fold(0u32, |sum, c| sum.saturating_add(c.pn)),
    };
    (pn.min(LARGEST), dn.min(LARGEST))
}

/// The limits of the child `mid` descends into, from the parent's `limits` (proof,
/// disproof): the child's proof number may grow until the parent's disproof number `dn`
/// (the sum or weak sum it is part of) reaches the parent's limit; its disproof number
/// until it passes `second` (the next sibling's, as `choose` ranks them) widened by
/// 1 + `epsilon` (the 1+epsilon trick: fewer switches between siblings), within the
/// parent's proof limit.
pub(super) fn child_limits(
    limits: (u32, u32),
    dn: u32,
    child_pn: u32,
    second: u32,
    epsilon: f64,
) -> (u32, u32) {
    let (pn_limit, dn_limit) = limits;
    let child_pn_limit = if dn_limit == LARGEST {
        LARGEST
    } else {
        (dn_limit - dn).saturating_add(child_pn).min(LARGEST)
    };
    let widened = ((second as f64) * (1.0 + epsilon)).ceil();
    let child_dn_limit = pn_limit.min(
        second
            .saturating_add(1)
            .max(widened.min(LARGEST as f64) as u32),
    );
    (child_pn_limit, child_dn_limit)
}

/// The evaluation `value` of a node moved to at least [`HINT_MARGIN`] beyond the threshold
/// `t` on the side that the alpha-beta table's bounds put it (the selective guess leaves
/// them for the nodes near the root, the leaves for theirs): a search, even a selective
/// one, sees further than the static evaluation. Numbers only: proved bounds come from
/// the proof-number table alone.
pub(super) fn table_hint(value: i32, bounds: Option<Bounds>, t: i32) -> i32 {
    match bounds {
        Some(b) if b.lower >= t => value.max(t + HINT_MARGIN),
        Some(b) if b.upper < t => value.min(t - HINT_MARGIN),
        _ => value,
    }
}

/// [`Initial::Evaluation`]'s numbers for a node the evaluation puts at `value` discs,
/// asked whether it scores at least `t`, with `mobility` legal moves.
///
/// Both numbers follow the margin over the whole range, beyond the threshold too: of two
/// children expected to succeed, the one with more to spare comes first, and its leaves,
/// far from the threshold, are cheap. (Weighing only the side short of the threshold, as
/// before, made all expected successes alike and cost far more nodes: results/dfpn.md,
/// "Figures once in code comments".)
pub(super) fn evaluation_numbers(value: i32, t: i32, mobility: u32) -> (u32, u32) {
    let margin = (value - t).clamp(-MARGIN_RANGE, MARGIN_RANGE);
    let weight = |m: i32| 1 + (MARGIN_RANGE - m) as u32 / 2;
    (weight(margin), mobility.max(1) * weight(-margin))
}

/// A child's disproof number, a first estimate's multiplied by `factor` (saturating below
/// [`INFINITE`]): the key that ranks the estimates against the searched children.
pub(super) fn weighed_number(factor: f64) -> impl Fn(&Child) -> u32 {
    move |k| match k.estimated {
        true => (k.dn as f64 * factor).min(LARGEST as f64) as u32,
        false => k.dn,
    }
}

/// The child to search next and the number it must stay within: the child with the
/// smallest `number` (the first on ties) and the second smallest. With `leave_busy`, a
/// child that other threads search is passed over for the best of the others while that
/// one's number is below `pn_limit` (so searching it can make progress here); the second
/// smallest is then taken among the others too.
pub(super) fn best_two(
    kids: &[Child],
    number: impl Fn(&Child) -> u32,
    pn_limit: u32,
    leave_busy: bool,
) -> (usize, u32) {
    let best_of = |free_only: bool| {
        let mut best: Option<(usize, u32)> = None;
        let mut second = INFINITE;
        for (i, c) in kids.iter().enumerate() {
            if free_only && c.busy > 0 {
                continue;
            }
            let n = number(c);
            match best {
                None => best = Some((i, n)),
                Some((_, b)) if n < b => {
                    second = b;
                    best = Some((i, n));
                }
                Some(_) => second = second.min(n),
            }
        }
        best.map(|(b, n)| (b, n, second))
    };
    let (best, _, second) = best_of(false).expect("children");
    if leave_busy && kids[best].busy > 0 {
        if let Some((free, n, free_second)) = best_of(true) {
            if n < pn_limit {
                return (free, free_second);
            }
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Board, Move};

    #[test]
    fn evaluation_numbers_grade_both_sides_of_the_threshold() {
        // More to spare: easier to prove, harder to disprove, on either side of t.
        for t in [-2, 0, 2] {
            for value in -40..40 {
                let (pn, dn) = evaluation_numbers(value, t, 5);
                let (next_pn, next_dn) = evaluation_numbers(value + 1, t, 5);
                assert!(next_pn <= pn && next_dn >= dn, "value {value}, t {t}");
            }
            let near = evaluation_numbers(t + 2, t, 5);
            let far = evaluation_numbers(t + 20, t, 5);
            assert!(far.0 < near.0 && far.1 > near.1, "t {t}: {near:?} {far:?}");
            let near = evaluation_numbers(t - 2, t, 5);
            let far = evaluation_numbers(t - 20, t, 5);
            assert!(far.0 > near.0 && far.1 < near.1, "t {t}: {near:?} {far:?}");
        }
        assert_eq!(
            evaluation_numbers(0, 0, 0),
            (1 + 14, 1 + 14),
            "no move counts as one"
        );
        assert_eq!(evaluation_numbers(64, 0, 3), (1, 3 * 29));
    }

    #[test]
    fn table_bounds_move_the_evaluation_past_the_threshold() {
        let bounds = |lower, upper| {
            Some(Bounds {
                lower,
                upper,
                best: engine::search::NO_MOVE,
                selectivity: 0,
            })
        };
        assert_eq!(table_hint(-5, bounds(2, 64), 2), 2 + HINT_MARGIN);
        assert_eq!(table_hint(30, bounds(2, 64), 2), 30, "already further");
        assert_eq!(table_hint(5, bounds(-64, 0), 2), 2 - HINT_MARGIN);
        assert_eq!(table_hint(5, bounds(-2, 4), 2), 5, "undecided bounds");
        assert_eq!(table_hint(5, None, 2), 5);
    }

    /// A child of unknown score with these numbers, `busy` threads below it, its numbers
    /// first estimates or not.
    fn unsolved(pn: u32, dn: u32, busy: u8, estimated: bool) -> Child {
        Child {
            mv: Move::Pass,
            board: Board::START,
            pn,
            dn,
            lower: -64,
            upper: 64,
            busy,
            estimated,
        }
    }

    /// The plain ranking of [`best_two`].
    fn dn(kid: &Child) -> u32 {
        kid.dn
    }

    #[test]
    fn weak_aggregation_of_solved_children_solves() {
        let kid = |pn, dn| unsolved(pn, dn, 0, false);
        let weak = Aggregation::Weak;
        assert_eq!(aggregate(weak, &[kid(0, INFINITE), kid(0, INFINITE)]).1, 0);
        assert_eq!(
            aggregate(weak, &[kid(3, 2), kid(5, 1), kid(0, INFINITE)]),
            (1, 6)
        );
        assert_eq!(
            best_two(&[kid(3, 2), kid(5, 1), kid(1, 4)], dn, LARGEST, true),
            (1, 2)
        );
    }

    #[test]
    fn a_child_another_thread_searches_is_left_while_a_sibling_can_progress() {
        let kid = |dn, busy| unsolved(1, dn, busy, false);
        let kids = [kid(2, 0), kid(1, 1), kid(4, 0)];
        // The best is busy: the best of the others, within the others' second best.
        assert_eq!(best_two(&kids, dn, 10, true), (0, 4));
        // Unless the others cannot progress within the limit.
        assert_eq!(best_two(&kids, dn, 2, true), (1, 2));
        // All busy: the best.
        assert_eq!(best_two(&[kid(2, 1), kid(1, 2)], dn, 10, true), (1, 2));
        // At an expected proof the threads stay together on the best.
        assert_eq!(best_two(&kids, dn, 10, false), (1, 2));
    }

    #[test]
    fn a_searched_child_is_kept_against_estimates_within_the_factor() {
        let kid = |dn, estimated| unsolved(1, dn, 0, estimated);
        let kids = [kid(8, true), kid(10, false), kid(12, true)];
        let weighed = weighed_number(1.5);
        // The estimate 8 weighs 12: the searched 10 goes on, within 12.
        assert_eq!(best_two(&kids, &weighed, LARGEST, false), (1, 12));
        assert_eq!(weighed(&kids[1]), 10, "searched numbers stay");
        // An estimate under two thirds of the searched number still wins.
        let kids = [kid(6, true), kid(10, false)];
        assert_eq!(best_two(&kids, &weighed, LARGEST, false), (0, 10));
        assert_eq!(weighed(&kid(LARGEST, true)), LARGEST);
    }
}
