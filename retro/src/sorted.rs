//! Sets of boards larger than memory: a builder that sorts and deduplicates what it is
//! given in memory up to a limit, spills sorted runs to temporary files beyond it, and
//! merges the runs into one sorted file at the end (external merge sort).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};

use engine::Board;

/// A board as one sortable number: player in the high half.
pub fn key(board: &Board) -> u128 {
    (board.player as u128) << 64 | board.opponent as u128
}

pub fn board(key: u128) -> Board {
    Board::new((key >> 64) as u64, key as u64)
}

/// A sorted set of keys without duplicates, in memory or in a temporary file.
pub enum SortedSet {
    Memory(Vec<u128>),
    File { file: File, len: usize },
}

impl SortedSet {
    pub fn len(&self) -> usize {
        match self {
            SortedSet::Memory(keys) => keys.len(),
            SortedSet::File { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Visits the keys in order, `chunk` at a time.
    pub fn for_each_chunk(&self, chunk: usize, mut f: impl FnMut(&[u128])) -> io::Result<()> {
        match self {
            SortedSet::Memory(keys) => keys.chunks(chunk.max(1)).for_each(f),
            SortedSet::File { file, .. } => {
                let mut reader = BufReader::new(file.try_clone()?);
                reader.rewind()?;
                let mut buffer = Vec::with_capacity(chunk);
                while let Some(k) = read_key(&mut reader)? {
                    buffer.push(k);
                    if buffer.len() == chunk {
                        f(&buffer);
                        buffer.clear();
                    }
                }
                if !buffer.is_empty() {
                    f(&buffer);
                }
            }
        }
        Ok(())
    }
}

fn read_key(reader: &mut impl Read) -> io::Result<Option<u128>> {
    let mut bytes = [0; 16];
    match reader.read_exact(&mut bytes) {
        Ok(()) => Ok(Some(u128::from_le_bytes(bytes))),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// Collects keys into a [`SortedSet`] holding at most `limit` keys in memory at once.
pub struct SetBuilder {
    buffer: Vec<u128>,
    limit: usize,
    runs: Vec<(File, usize)>,
}

impl SetBuilder {
    pub fn new(limit: usize) -> SetBuilder {
        SetBuilder {
            buffer: Vec::new(),
            limit: limit.max(1024),
            runs: Vec::new(),
        }
    }

    pub fn extend(&mut self, keys: impl IntoIterator<Item = u128>) -> io::Result<()> {
        for k in keys {
            self.buffer.push(k);
            if self.buffer.len() >= self.limit {
                self.compact()?;
            }
        }
        Ok(())
    }

    /// Sorts and deduplicates the buffer; spills it when that did not free half of it.
    fn compact(&mut self) -> io::Result<()> {
        self.buffer.sort_unstable();
        self.buffer.dedup();
        if self.buffer.len() >= self.limit / 2 {
            let run = write_run(self.buffer.drain(..))?;
            self.runs.push(run);
        }
        Ok(())
    }

    /// How many runs went to disk so far.
    pub fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    pub fn finish(mut self) -> io::Result<SortedSet> {
        self.buffer.sort_unstable();
        self.buffer.dedup();
        if self.runs.is_empty() {
            return Ok(SortedSet::Memory(self.buffer));
        }
        if !self.buffer.is_empty() {
            let run = write_run(self.buffer.drain(..))?;
            self.runs.push(run);
        }
        // k-way merge of the runs, dropping duplicates across them.
        let mut readers = self
            .runs
            .into_iter()
            .map(|(mut f, _)| {
                f.rewind()?;
                Ok(BufReader::new(f))
            })
            .collect::<io::Result<Vec<_>>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(k) = read_key(r)? {
                heap.push(Reverse((k, i)));
            }
        }
        let mut last = None;
        let mut out = RunWriter::new()?;
        while let Some(Reverse((k, i))) = heap.pop() {
            if last != Some(k) {
                out.push(k)?;
                last = Some(k);
            }
            if let Some(next) = read_key(&mut readers[i])? {
                heap.push(Reverse((next, i)));
            }
        }
        let (file, len) = out.finish()?;
        Ok(SortedSet::File { file, len })
    }
}

struct RunWriter {
    writer: BufWriter<File>,
    len: usize,
}

impl RunWriter {
    fn new() -> io::Result<RunWriter> {
        Ok(RunWriter {
            writer: BufWriter::with_capacity(1 << 20, tempfile::tempfile()?),
            len: 0,
        })
    }

    fn push(&mut self, k: u128) -> io::Result<()> {
        self.len += 1;
        self.writer.write_all(&k.to_le_bytes())
    }

    fn finish(self) -> io::Result<(File, usize)> {
        let file = self.writer.into_inner().map_err(|e| e.into_error())?;
        Ok((file, self.len))
    }
}

fn write_run(keys: impl Iterator<Item = u128>) -> io::Result<(File, usize)> {
    let mut run = RunWriter::new()?;
    for k in keys {
        run.push(k)?;
    }
    run.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(set: &SortedSet) -> Vec<u128> {
        let mut all = Vec::new();
        set.for_each_chunk(7, |c| all.extend_from_slice(c)).unwrap();
        all
    }

    #[test]
    fn spilled_and_in_memory_sets_agree() {
        let keys: Vec<u128> = (0..20_000u128)
            .map(|i| (i * 7919) % 5003 + (i % 3) * (1 << 70))
            .collect();
        let mut expected = keys.clone();
        expected.sort_unstable();
        expected.dedup();

        let mut small = SetBuilder::new(1024);
        small.extend(keys.iter().copied()).unwrap();
        assert!(small.spilled_runs() > 1);
        let spilled = small.finish().unwrap();
        assert!(matches!(spilled, SortedSet::File { .. }));
        assert_eq!(spilled.len(), expected.len());
        assert_eq!(collect(&spilled), expected);

        let mut large = SetBuilder::new(1 << 20);
        large.extend(keys).unwrap();
        let memory = large.finish().unwrap();
        assert!(matches!(memory, SortedSet::Memory(_)));
        assert_eq!(collect(&memory), expected);
    }

    #[test]
    fn keys_round_trip() {
        let b = Board::new(0x8100_0000_0000_0001, 0x0000_0018_1800_0000);
        assert_eq!(board(key(&b)), b);
    }
}
