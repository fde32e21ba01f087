//! The shallow-search values the threads share, to grade unexpanded children once.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use engine::Board;

/// A direct-mapped cache of shallow-search values that the threads share: a node's
/// unexpanded children are graded again at each of its expansions, at each threshold
/// asked of the position, and by each thread that passes through it, and their searches
/// would otherwise be repeated every time.
///
/// Lock-free: a slot holds the board's two words each XORed with the value, and the
/// value, so a slot torn by two threads writing at once fails the check on reading
/// (both boards' words would have to agree with one value) and reads as a miss. The
/// values only grade the search's choices: a wrong one could cost nodes, never an answer.
pub(super) struct ValueCache {
    slots: Vec<[AtomicU64; 3]>,
}

impl ValueCache {
    const SLOTS: usize = 1 << 17;

    pub(super) fn new() -> ValueCache {
        ValueCache {
            slots: (0..Self::SLOTS).map(|_| Default::default()).collect(),
        }
    }

    fn slot(&self, board: &Board) -> &[AtomicU64; 3] {
        &self.slots[board.hash() as usize & (Self::SLOTS - 1)]
    }

    pub(super) fn get(&self, board: &Board) -> Option<i32> {
        let [player, opponent, value] = self.slot(board).each_ref().map(|w| w.load(Relaxed));
        (player ^ value == board.player && opponent ^ value == board.opponent)
            .then_some(value as u32 as i32)
    }

    pub(super) fn put(&self, board: &Board, value: i32) {
        let value = value as u32 as u64;
        let [player, opponent, stored] = self.slot(board);
        player.store(board.player ^ value, Relaxed);
        opponent.store(board.opponent ^ value, Relaxed);
        stored.store(value, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_cache_answers_only_for_the_board_it_holds() {
        let cache = ValueCache::new();
        let start = Board::START;
        let after_f5 = start.children()[0].1;
        assert_eq!(cache.get(&start), None);
        cache.put(&start, -37);
        assert_eq!(cache.get(&start), Some(-37));
        assert_eq!(cache.get(&after_f5), None);
        // A board of the same slot takes it over.
        let rival = (1..)
            .map(|bit| Board {
                player: 1 << (bit % 64),
                opponent: bit,
            })
            .find(|b| std::ptr::eq(cache.slot(b), cache.slot(&start)))
            .expect("a board in the same slot");
        cache.put(&rival, 5);
        assert_eq!(cache.get(&start), None);
        assert_eq!(cache.get(&rival), Some(5));
        // Torn by two threads: the start's first word over the rival's slot.
        cache.slot(&start)[0].store(start.player ^ (-37i32 as u32 as u64), Relaxed);
        assert_eq!(cache.get(&start), None);
        assert_eq!(cache.get(&rival), None);
        cache.put(&start, -1);
        assert_eq!(
            cache.get(&start),
            Some(-1),
            "negative values come back whole"
        );
    }
}
