//! Sets of boards larger than memory: a builder that sorts and deduplicates what it is
//! given in memory up to a limit, spills sorted runs to temporary files beyond it, and
//! merges the runs into one sorted file at the end (external merge sort).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
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
        /// What it holds, checked each time it is read.
        content: Content,
        /// Its path while it is temporary.
        temp: Option<TempPath>,
    },
}

/// What a file of keys holds, known from when it was written: every read of it checks
/// that the keys are boards, strictly increasing (no record twice), as many as written and
/// with the same checksum, so that a flipped byte or a torn write is an error naming the
/// file, never a wrong count or a panic further on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    /// Keys in it.
    pub len: usize,
    /// XXH3-64 of its bytes.
    pub checksum: u64,
    /// The file, for messages ("a spilled run" for a temporary one).
    pub name: String,
}

/// An error of kind `InvalidData` saying the file `name` is damaged, and how.
pub(crate) fn damaged(name: impl std::fmt::Display, why: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{name}: damaged: {why}"),
    )
}

impl SortedSet {
    /// Keeps the set in the file `path` (moved there where it already is a file on the same
    /// file system, else written) and returns it, read from there.
    pub fn save(self, path: &Path) -> io::Result<SortedSet> {
        let name = path.display().to_string();
        match self {
            SortedSet::File {
                file,
                content,
                temp: Some(temp),
            } => match temp.persist(path) {
                Ok(()) => Ok(SortedSet::File {
                    file,
                    content: Content { name, ..content },
                    temp: None,
                }),
                Err(e) => {
                    let set = SortedSet::File {
                        file,
                        content,
                        temp: Some(e.path),
                    };
                    set.write_to(path)
                }
            },
            set => set.write_to(path),
        }
    }

    /// Writes the keys to `path` (through a temporary name, so that a torn write leaves no
    /// file there) and returns the set read from there.
    fn write_to(&self, path: &Path) -> io::Result<SortedSet> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let named = tempfile::NamedTempFile::new_in(dir.unwrap_or(Path::new(".")))?;
        let (file, temp) = named.into_parts();
        let mut writer = RunWriter::on(file);
        let mut result = Ok(());
        self.for_each_chunk(1 << 16, |keys| {
            for &k in keys {
                if result.is_ok() {
                    result = writer.push(k);
                }
            }
        })?;
        result?;
        let (file, mut content) = writer.finish()?;
        file.sync_all()?;
        temp.persist(path).map_err(|e| e.error)?;
        content.name = path.display().to_string();
        Ok(SortedSet::File {
            file,
            content,
            temp: None,
        })
    }

    /// A set saved by [`SortedSet::save`], which holds `content` (its length and checksum,
    /// as the file's manifest keeps them): a file of another size is refused at once, one
    /// of other keys when it is read ([`SortedSet::verify`] reads it whole).
    pub fn open(path: &Path, len: usize, checksum: u64) -> io::Result<SortedSet> {
        let name = path.display().to_string();
        let file =
            File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
        let bytes = file.metadata()?.len();
        if bytes != 16 * len as u64 {
            return Err(damaged(
                &name,
                format!("{bytes} bytes where {len} keys take {}", 16 * len as u64),
            ));
        }
        Ok(SortedSet::File {
            file,
            content: Content {
                len,
                checksum,
                name,
            },
            temp: None,
        })
    }

    /// Reads the set whole: an error naming the file where it is not what was written.
    pub fn verify(&self) -> io::Result<()> {
        self.for_each_chunk(1 << 16, |_| ())
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        match self {
            SortedSet::Memory(keys) => keys.len(),
            SortedSet::File { content, .. } => content.len,
        }
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The XXH3-64 of the keys as a file holds them (16 bytes each, little endian).
    pub fn checksum(&self) -> u64 {
        match self {
            SortedSet::Memory(keys) => {
                let mut hasher = xxhash_rust::xxh3::Xxh3::new();
                for chunk in keys.chunks(BLOCK / 16) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|k| k.to_le_bytes()).collect();
                    hasher.update(&bytes);
                }
                hasher.digest()
            }
            SortedSet::File { content, .. } => content.checksum,
        }
    }

    /// Whether `key` is in the set: a binary search, reading about 30 keys of a file (which
    /// does not check the file: [`SortedSet::verify`] it once first).
    pub fn contains(&self, key: u128) -> io::Result<bool> {
        match self {
            SortedSet::Memory(keys) => Ok(keys.binary_search(&key).is_ok()),
            SortedSet::File { file, content, .. } => {
                let (mut low, mut high) = (0, content.len);
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

    /// Visits the keys in order, `chunk` at a time; from a file, an error (kind
    /// `InvalidData`, naming it) where it is not what was written: then some chunks were
    /// visited already, and the caller throws away what it made of them.
    pub fn for_each_chunk(&self, chunk: usize, mut f: impl FnMut(&[u128])) -> io::Result<()> {
        match self {
            SortedSet::Memory(keys) => keys.chunks(chunk.max(1)).for_each(f),
            SortedSet::File { file, content, .. } => {
                let mut reader = KeyReader::new(file.try_clone()?, content.clone(), BLOCK)?;
                let mut buffer = Vec::with_capacity(chunk);
                while let Some(k) = reader.next_key()? {
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

/// Reads a file of keys from its start, checking it against its [`Content`] as it goes:
/// each key a board (no square of both colours) and greater than the one before, and at
/// the end the count and the checksum. A block at a time, hashed whole: per key, the
/// checks are two comparisons.
struct KeyReader {
    file: File,
    content: Content,
    hasher: xxhash_rust::xxh3::Xxh3,
    block: Vec<u8>,
    /// Where the next key starts in `block`.
    at: usize,
    read: usize,
    last: Option<u128>,
}

/// Bytes read (and hashed) at once from a file read through, or written at once.
const BLOCK: usize = 1 << 20;

/// Bytes read at once from each run being merged (as a `BufReader`'s default).
const MERGE_BLOCK: usize = 1 << 13;

impl KeyReader {
    /// A reader of `file` reading `block` bytes at once: [`BLOCK`] for one file read
    /// through, [`MERGE_BLOCK`] for each of the runs a merge reads together (within the
    /// memory budget however many there are).
    fn new(mut file: File, content: Content, block: usize) -> io::Result<KeyReader> {
        file.rewind()?;
        Ok(KeyReader {
            file,
            content,
            hasher: xxhash_rust::xxh3::Xxh3::new(),
            block: Vec::with_capacity(block),
            at: 0,
            read: 0,
            last: None,
        })
    }

    /// The next block of the file (empty at its end), hashed.
    fn refill(&mut self) -> io::Result<()> {
        let name = &self.content.name;
        let size = self.block.capacity();
        self.block.resize(size, 0);
        let mut filled = 0;
        while filled < size {
            match self.file.read(&mut self.block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io::Error::new(e.kind(), format!("{name}: {e}"))),
            }
        }
        self.block.truncate(filled);
        if filled % 16 != 0 {
            return Err(damaged(name, "it ends inside a key".into()));
        }
        self.hasher.update(&self.block);
        self.at = 0;
        Ok(())
    }

    fn next_key(&mut self) -> io::Result<Option<u128>> {
        if self.at == self.block.len() {
            self.refill()?;
            if self.block.is_empty() {
                return self.end().map(|()| None);
            }
        }
        let bytes: [u8; 16] = self.block[self.at..self.at + 16]
            .try_into()
            .expect("16 bytes");
        self.at += 16;
        let k = u128::from_le_bytes(bytes);
        let index = self.read;
        self.read += 1;
        let name = &self.content.name;
        if self.last.is_some_and(|last| last >= k) {
            return Err(damaged(
                name,
                format!("key {index} is not greater than the one before (a record written twice, or a changed byte)"),
            ));
        }
        if (k >> 64) as u64 & k as u64 != 0 {
            return Err(damaged(
                name,
                format!("key {index} is no board (a square of both colours)"),
            ));
        }
        self.last = Some(k);
        Ok(Some(k))
    }

    /// At the end of the file: as many keys as written, with their checksum.
    fn end(&self) -> io::Result<()> {
        let name = &self.content.name;
        if self.read != self.content.len {
            return Err(damaged(
                name,
                format!("{} keys where {} were written", self.read, self.content.len),
            ));
        }
        if self.hasher.digest() != self.content.checksum {
            return Err(damaged(
                name,
                "its keys do not match the checksum they were written with".into(),
            ));
        }
        Ok(())
    }
}

/// Collects keys into a [`SortedSet`] holding at most `limit` keys in memory at once.
pub struct SetBuilder {
    buffer: Vec<u128>,
    limit: usize,
    runs: Vec<(File, Content)>,
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
        // k-way merge of the runs, dropping duplicates across them; each run is checked
        // against what was written to it as it is read back.
        let mut readers = self
            .runs
            .into_iter()
            .map(|(file, content)| KeyReader::new(file, content, MERGE_BLOCK))
            .collect::<io::Result<Vec<_>>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(k) = r.next_key()? {
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
            if let Some(next) = readers[i].next_key()? {
                heap.push(Reverse((next, i)));
            }
        }
        let (file, content) = out.finish()?;
        Ok(SortedSet::File {
            file,
            content,
            temp: Some(temp),
        })
    }
}

/// Writes keys to a file, counting them and taking their checksum, a block at a time.
struct RunWriter {
    file: File,
    block: Vec<u8>,
    len: usize,
    hasher: xxhash_rust::xxh3::Xxh3,
}

impl RunWriter {
    fn on(file: File) -> RunWriter {
        RunWriter {
            file,
            block: Vec::with_capacity(BLOCK),
            len: 0,
            hasher: xxhash_rust::xxh3::Xxh3::new(),
        }
    }

    fn push(&mut self, k: u128) -> io::Result<()> {
        self.len += 1;
        self.block.extend_from_slice(&k.to_le_bytes());
        if self.block.len() >= BLOCK {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.hasher.update(&self.block);
        self.file.write_all(&self.block)?;
        self.block.clear();
        Ok(())
    }

    fn finish(mut self) -> io::Result<(File, Content)> {
        self.flush()?;
        Ok((
            self.file,
            Content {
                len: self.len,
                checksum: self.hasher.digest(),
                name: "a spilled run".into(),
            },
        ))
    }
}

fn write_run(dir: Option<&Path>, keys: impl Iterator<Item = u128>) -> io::Result<(File, Content)> {
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
            .map(|i| (i * 7919) % 5003 + (i % 3) * (1 << 80))
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
            for k in [0, 1, 5002, 5003, 1 << 80, (1 << 81) + 5002, u128::MAX] {
                assert_eq!(
                    set.contains(k).unwrap(),
                    expected.binary_search(&k).is_ok(),
                    "{k}"
                );
            }
            assert!(expected.iter().all(|&k| set.contains(k).unwrap()));
        }
    }

    /// A spilled run changed on disk before the merge reads it back (a disk error) stops
    /// the set with an error, never a wrong set.
    #[test]
    fn a_damaged_spilled_run_is_an_error() {
        use std::os::unix::fs::FileExt;
        let mut builder = SetBuilder::new(1024);
        builder.extend((0..5000u128).map(|i| i * 3)).unwrap();
        assert!(builder.runs.len() > 1);
        builder.runs[1].0.write_all_at(&[0xff], 40).unwrap();
        let error = builder.finish().err().expect("refused").to_string();
        assert!(error.contains("a spilled run: damaged"), "{error}");
    }

    /// A saved set reads back; opened with another count or checksum than it was written
    /// with, or changed on disk, it is refused naming the file.
    #[test]
    fn a_saved_set_is_checked_against_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("set.keys");
        let keys: Vec<u128> = (1..100u128).map(|i| i << 64).collect();
        let saved = SortedSet::Memory(keys.clone()).save(&path).unwrap();
        let (len, checksum) = (saved.len(), saved.checksum());
        assert_eq!(checksum, SortedSet::Memory(keys.clone()).checksum());
        let opened = SortedSet::open(&path, len, checksum).unwrap();
        assert_eq!(collect(&opened), keys);
        let name = path.display().to_string();
        let error = SortedSet::open(&path, len + 1, checksum).err().unwrap();
        assert!(error.to_string().starts_with(&name), "{error}");
        let wrong = SortedSet::open(&path, len, checksum ^ 1).unwrap();
        let error = wrong.verify().unwrap_err().to_string();
        assert!(
            error.contains("checksum") && error.starts_with(&name),
            "{error}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[16 * 50 + 9] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let damaged = SortedSet::open(&path, len, checksum).unwrap();
        assert!(damaged.verify().is_err());
    }

    #[test]
    fn keys_round_trip() {
        let b = Board::new(0x8100_0000_0000_0001, 0x0000_0018_1800_0000);
        assert_eq!(board(key(&b)), b);
    }
}
