//! `--shard I/N`: one run's part of a batch, and the parts put back together by the merge
//! commands.

/// `--shard I/N`: (I, N), 1 <= I <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shard must be I/N with 1 <= I <= N, found {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The parts of a split (`--shard I/N` runs) as the merge commands read them, with where
/// each was read. Part I of N is every item whose number is I - 1 modulo N (the items of
/// every `--shard` in the project: positions of a file, subtrees, hash partitions), so a
/// coarser split's part is the union of a finer one's whose N it divides (6/64 is 6/128
/// and 70/128). Parts of several splits are therefore whole where, modulo the least common
/// multiple of their Ns, each residue is in exactly one part: a cluster can rerun a slow
/// part as halves.
pub struct Split<T> {
    parts: Vec<((usize, usize), T, String)>,
}

impl<T> Default for Split<T> {
    fn default() -> Split<T> {
        Split { parts: Vec::new() }
    }
}

impl<T> Split<T> {
    /// The least common multiple of the Ns that [`Split::complete`] checks residue by
    /// residue; beyond it a set of parts is refused rather than checked slowly.
    const MOST_RESIDUES: usize = 1 << 20;

    /// Adds part `shard` ("I/N") read at `at`; refuses a shard that does not parse (the
    /// message says where). Overlaps and gaps are found by [`Split::complete`].
    pub fn add(&mut self, shard: &str, part: T, at: &str) -> Result<(), String> {
        let shard = parse_shard(shard).map_err(|e| format!("{at}: {e}"))?;
        self.parts.push((shard, part, at.to_string()));
        Ok(())
    }

    /// The part read first.
    pub fn first(&self) -> Option<&T> {
        self.parts.first().map(|(_, part, _)| part)
    }

    /// Whether no part was read.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// How many parts were read.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Every part, ordered by (I, N), when together they hold every item once; else the
    /// first shard missing ("shard 2/3 is missing", N the least common multiple) or a pair
    /// of parts that overlap, with where each was read.
    pub fn complete(mut self) -> Result<Vec<T>, String> {
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut modulus = 1;
        for &((_, n), ..) in &self.parts {
            modulus = modulus / gcd(modulus, n) * n;
            if modulus > Self::MOST_RESIDUES {
                return Err(format!(
                    "splits whose least common multiple is over {} parts",
                    Self::MOST_RESIDUES
                ));
            }
        }
        // Stable: of two reads of one shard, the first read is named first.
        self.parts.sort_by_key(|&((i, n), ..)| (i, n));
        let mut owner: Vec<Option<usize>> = vec![None; modulus];
        for (k, &((i, n), _, ref at)) in self.parts.iter().enumerate() {
            for residue in (i - 1..modulus).step_by(n) {
                if let Some(first) = owner[residue] {
                    let ((j, m), _, first_at) = &self.parts[first];
                    return Err(if (i, n) == (*j, *m) {
                        format!("shard {i}/{n} is in {first_at} and again in {at}")
                    } else {
                        format!("shard {i}/{n} ({at}) overlaps shard {j}/{m} ({first_at})")
                    });
                }
                owner[residue] = Some(k);
            }
        }
        if let Some(missing) = owner.iter().position(Option::is_none) {
            return Err(format!("shard {}/{modulus} is missing", missing + 1));
        }
        Ok(self.parts.into_iter().map(|(_, part, _)| part).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_is_whole_with_every_shard_once() {
        let mut split = Split::default();
        split.add("2/3", 'b', "b.jsonl:1").unwrap();
        split.add("1/3", 'a', "a.jsonl:1").unwrap();
        assert_eq!(split.first(), Some(&'b'));
        assert!(split
            .add("0/3", 'e', "e.jsonl:3")
            .unwrap_err()
            .starts_with("e.jsonl:3: "));
        let mut missing = Split::default();
        missing.add("1/3", 'a', "a").unwrap();
        missing.add("3/3", 'c', "c").unwrap();
        assert_eq!(missing.complete().unwrap_err(), "shard 2/3 is missing");
        let mut again = Split::default();
        for (shard, part, at) in [
            ("2/3", 'b', "b.jsonl:1"),
            ("1/3", 'a', "a"),
            ("3/3", 'c', "c"),
        ] {
            again.add(shard, part, at).unwrap();
        }
        again.add("2/3", 'd', "d.jsonl:4").unwrap();
        assert_eq!(
            again.complete().unwrap_err(),
            "shard 2/3 is in b.jsonl:1 and again in d.jsonl:4"
        );
        split.add("3/3", 'c', "c.jsonl:1").unwrap();
        assert_eq!(split.len(), 3);
        assert_eq!(split.complete().unwrap(), vec!['a', 'b', 'c']);
    }

    /// 1/2 is 1/4 and 3/4: with 2/4 and 4/4 every residue modulo 4 is in one part; 1/3
    /// beside them overlaps 1/2 (residue 0 modulo 12), and without 4/4 one is missing.
    #[test]
    fn splits_that_nest_are_whole_when_they_cover_each_residue_once() {
        let split = |shards: &[&'static str]| {
            let mut split = Split::default();
            for (k, shard) in shards.iter().enumerate() {
                split
                    .add(shard, *shard, &format!("line {}", k + 1))
                    .unwrap();
            }
            split.complete()
        };
        assert_eq!(split(&["4/4", "1/2", "2/4"]), Ok(vec!["1/2", "2/4", "4/4"]));
        assert_eq!(
            split(&["1/2", "2/4", "4/4", "1/3"]),
            Err("shard 1/3 (line 4) overlaps shard 1/2 (line 1)".into())
        );
        assert_eq!(split(&["1/2", "2/4"]), Err("shard 4/4 is missing".into()));
        assert_eq!(
            split(&["1/1024", "1/1025"]),
            Err("splits whose least common multiple is over 1048576 parts".into())
        );
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("x").is_err());
    }
}
