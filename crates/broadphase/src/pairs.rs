//! Candidate pairs and where they are written.

/// A candidate pair: two geometry ids (indices into the input slice) whose
/// AABBs overlap or touch and that no enabled filter dropped, with `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CandidatePair {
    /// The smaller geometry id.
    pub a: u32,
    /// The larger geometry id.
    pub b: u32,
}

impl CandidatePair {
    /// The pair of `i` and `j` in either order, stored with `a < b`.
    #[inline(always)]
    pub fn new(i: u32, j: u32) -> Self {
        if i < j {
            Self { a: i, b: j }
        } else {
            Self { a: j, b: i }
        }
    }
}

/// Where the sweep writes its pairs, in output order.
pub(crate) trait PairSink {
    /// Takes the next pair (a full sink counts it without storing it).
    fn push(&mut self, pair: CandidatePair);
}

/// A caller's fixed-capacity slice: keeps the first pairs that fit and
/// counts every pair found.
pub(crate) struct SliceSink<'a> {
    pub(crate) out: &'a mut [CandidatePair],
    pub(crate) kept: usize,
    pub(crate) found: usize,
}

impl PairSink for SliceSink<'_> {
    #[inline(always)]
    fn push(&mut self, pair: CandidatePair) {
        if let Some(slot) = self.out.get_mut(self.kept) {
            *slot = pair;
            self.kept += 1;
        }
        self.found += 1;
    }
}

/// A growable list with an optional cap: keeps the first `cap` pairs and
/// counts every pair found.
#[cfg(feature = "alloc")]
pub(crate) struct VecSink<'a> {
    pub(crate) out: &'a mut alloc::vec::Vec<CandidatePair>,
    pub(crate) cap: usize,
    pub(crate) found: usize,
}

#[cfg(feature = "alloc")]
impl PairSink for VecSink<'_> {
    #[inline(always)]
    fn push(&mut self, pair: CandidatePair) {
        if self.out.len() < self.cap {
            self.out.push(pair);
        }
        self.found += 1;
    }
}

/// A plain growable list (no cap), used for per-thread chunks.
#[cfg(feature = "alloc")]
impl PairSink for alloc::vec::Vec<CandidatePair> {
    #[inline(always)]
    fn push(&mut self, pair: CandidatePair) {
        alloc::vec::Vec::push(self, pair);
    }
}
