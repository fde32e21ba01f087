//! Sets of boards larger than memory: a builder that sorts and deduplicates what it is
//! given in memory up to a limit, spills sorted runs to temporary files beyond it, and
//! merges the runs into one sorted file at the end (external merge sort).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;
use tempfile::TempPath;

use engine::Board;

/// A board as one sortable number: player in the high half.
pub fn key(board: &Board) -> u128 {
    (board.player as u128) << 64 | board.opponent as u128
}

/// The board of a [`key`].
pub fn board(key: u128) -> Board {
    Board::new((key >> 64) as u64, key as u64)
}

/// A sorted set of keys without duplicates, in memory or in a file (16 bytes a key, little
/// endian): a temporary one while `temp` is there, deleted with the set unless saved.
pub enum SortedSet {
    /// The keys in memory.
    Memory(Vec<u128>),
    /// The keys in a file.
    File {
        /// The file, open.
        file: File,
        /// Keys in it.
        len: usize,
        /// Its path while it is temporary.
        temp: Option<TempPath>,
    },
}

impl SortedSet {
    /// Keeps the set in the file `path` (moved there where it already is a file on the same
    /// file system, else written) and returns it, read from there.
    pub fn save(self, path: &Path) -> io::Result<SortedSet> {
        match self {
            SortedSet::File {
                file,
                len,
                temp: Some(temp),
            } => match temp.persist(path) {
                Ok(()) => Ok(SortedSet::File {
                    file,
                    len,
                    temp: None,
                }),
                Err(e) => {
                    let set = SortedSet::File {
                        file,
                        len,
                        temp: Some(e.path),
                    };
                    set.write_to(path)?;
                    SortedSet::open(path)
                }
            },
            set => {
                set.write_to(path)?;
                SortedSet::open(path)
            }
        }
    }

    fn write_to(&self, path: &Path) -> io::Result<()> {
        let mut writer = BufWriter::with_capacity(1 << 20, File::create(path)?);
        let mut result = Ok(());
        self.for_each_chunk(1 << 16, |keys| {
            for k in keys {
                if result.is_ok() {
                    result = writer.write_all(&k.to_le_bytes());
                }
            }
        })?;
        result?;
        writer.into_inner().map_err(|e| e.into_error())?.sync_all()
    }

    /// A set saved by [`SortedSet::save`].
    pub fn open(path: &Path) -> io::Result<SortedSet> {
        let file = File::open(path)?;
        let bytes = file.metadata()?.len();
        if bytes % 16 != 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {bytes} bytes is not a whole number of keys",
                    path.display()
                ),
            ));
        }
        Ok(SortedSet::File {
            file,
            len: (bytes / 16) as usize,
            temp: None,
        })
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        match self {
            SortedSet::Memory(keys) => keys.len(),
            SortedSet::File { len, .. } => *len,
        }
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is in the set: a binary search, reading about 30 keys of a file.
    pub fn contains(&self, key: u128) -> io::Result<bool> {
        match self {
            SortedSet::Memory(keys) => Ok(keys.binary_search(&key).is_ok()),
            SortedSet::File { file, len, .. } => {
                let (mut low, mut high) = (0, *len);
                let mut bytes = [0; 16];
                while low < high {
                    let middle = low + (high - low) / 2;
                    std::os::unix::fs::FileExt::read_exact_at(
                        file,
                        &mut bytes,
                        16 * middle as u64,
                    )?;
                    match u128::from_le_bytes(bytes).cmp(&key) {
                        std::cmp::Ordering::Less => low = middle + 1,
                        std::cmp::Ordering::Greater => high = middle,
                        std::cmp::Ordering::Equal => return Ok(true),
                    }
                }
                Ok(false)
            }
        }
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
    /// Where its files go (the system's temporary directory without).
    dir: Option<PathBuf>,
}

impl SetBuilder {
    /// A builder holding at most about `limit` keys in memory, its runs in the system's
    /// temporary directory.
    pub fn new(limit: usize) -> SetBuilder {
        SetBuilder::new_in(limit, None)
    }

    /// A builder that keeps its runs and its result in `dir`, so that the result can be
    /// saved there without a copy.
    pub fn new_in(limit: usize, dir: Option<&Path>) -> SetBuilder {
        SetBuilder {
            buffer: Vec::new(),
            limit: limit.max(1024),
            runs: Vec::new(),
            dir: dir.map(Path::to_path_buf),
        }
    }

    /// Adds `keys` (duplicates allowed).
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
        self.buffer.par_sort_unstable();
        self.buffer.dedup();
        if self.buffer.len() >= self.limit / 2 {
            let run = write_run(self.dir.as_deref(), self.buffer.drain(..))?;
            self.runs.push(run);
        }
        Ok(())
    }

    /// The set of every key added, sorted, without duplicates.
    pub fn finish(mut self) -> io::Result<SortedSet> {
        self.buffer.par_sort_unstable();
        self.buffer.dedup();
        if self.runs.is_empty() {
            return Ok(SortedSet::Memory(self.buffer));
        }
        if !self.buffer.is_empty() {
            let run = write_run(self.dir.as_deref(), self.buffer.drain(..))?;
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
        let named = match &self.dir {
            Some(dir) => tempfile::NamedTempFile::new_in(dir)?,
            None => tempfile::NamedTempFile::new()?,
        };
        let (named_file, temp) = named.into_parts();
        let mut out = RunWriter::on(named_file);
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
        Ok(SortedSet::File {
            file,
            len,
            temp: Some(temp),
        })
    }
}

struct RunWriter {
    writer: BufWriter<File>,
    len: usize,
}

impl RunWriter {
    fn on(file: File) -> RunWriter {
        RunWriter {
            writer: BufWriter::with_capacity(1 << 20, file),
            len: 0,
        }
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

fn write_run(dir: Option<&Path>, keys: impl Iterator<Item = u128>) -> io::Result<(File, usize)> {
    let file = match dir {
        Some(dir) => tempfile::tempfile_in(dir)?,
        None => tempfile::tempfile()?,
    };
    let mut run = RunWriter::on(file);
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
        assert!(small.runs.len() > 1, "runs went to disk");
        let spilled = small.finish().unwrap();
        assert!(matches!(spilled, SortedSet::File { .. }));
        assert_eq!(spilled.len(), expected.len());
        assert_eq!(collect(&spilled), expected);

        let mut large = SetBuilder::new(1 << 20);
        large.extend(keys).unwrap();
        let memory = large.finish().unwrap();
        assert!(matches!(memory, SortedSet::Memory(_)));
        assert_eq!(collect(&memory), expected);

        for set in [&spilled, &memory] {
            for k in [0, 1, 5002, 5003, 1 << 70, (1 << 71) + 5002, u128::MAX] {
                assert_eq!(
                    set.contains(k).unwrap(),
                    expected.binary_search(&k).is_ok(),
                    "{k}"
                );
            }
            assert!(expected.iter().all(|&k| set.contains(k).unwrap()));
        }
    }

    #[test]
    fn keys_round_trip() {
        let b = Board::new(0x8100_0000_0000_0001, 0x0000_0018_1800_0000);
        assert_eq!(board(key(&b)), b);
    }
}
