//! The links of the coupling graph: who is whose parent, which links are
//! fixed to the world, and where each link's dofs sit in the velocity array.

use mink_support::Real;

/// The parent index of a root link (a link with no parent in its
/// articulation: a free body, or the base of a fixed or floating tree).
pub const NO_PARENT: u32 = u32::MAX;

/// The largest number of links a [`Topology`] accepts. The top few `u32`
/// values are kept free as sentinels ([`NO_PARENT`] and the internal awake /
/// static markers).
pub const MAX_LINKS: usize = (u32::MAX - 4) as usize;

/// One link (rigid body) of the scene, as the islands see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Link {
    /// The link's parent in its articulation, or [`NO_PARENT`]. Must be
    /// smaller than the link's own index (links are listed parents first, as
    /// MuJoCo and Genesis order them).
    pub parent: u32,
    /// `true` when the link is welded to the world (the ground, a fixed
    /// robot base, static scenery). A fixed link has no dofs, belongs to no
    /// island, and never couples two islands: contacts with it and kinematic
    /// edges to it do not merge anything (see the crate docs).
    pub fixed: bool,
    /// Index of the link's first dof in the flat velocity array.
    pub dof_start: u32,
    /// Number of dofs of the link (the joint dofs between it and its parent;
    /// 6 for a free body, 0 for a welded link).
    pub dof_count: u32,
}

impl Link {
    /// A free body: no parent, not fixed, `dof_count` dofs starting at
    /// `dof_start`.
    pub const fn free(dof_start: u32, dof_count: u32) -> Self {
        Self {
            parent: NO_PARENT,
            fixed: false,
            dof_start,
            dof_count,
        }
    }

    /// A link welded to the world (no parent, no dofs).
    pub const fn world() -> Self {
        Self {
            parent: NO_PARENT,
            fixed: true,
            dof_start: 0,
            dof_count: 0,
        }
    }

    /// A moving child of `parent` with `dof_count` dofs starting at
    /// `dof_start`.
    pub const fn child(parent: u32, dof_start: u32, dof_count: u32) -> Self {
        Self {
            parent,
            fixed: false,
            dof_start,
            dof_count,
        }
    }
}

/// Why a [`Topology`] was refused; each variant names the offending link or
/// dof by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TopologyError {
    /// More than [`MAX_LINKS`] links.
    TooManyLinks,
    /// The link's parent is not [`NO_PARENT`] and not a smaller index.
    ParentNotBefore {
        /// The link.
        link: u32,
    },
    /// A fixed link whose parent moves (a link cannot be welded to the world
    /// and carried by a moving body at once).
    FixedUnderMovingParent {
        /// The link.
        link: u32,
    },
    /// A fixed link with dofs.
    FixedLinkWithDofs {
        /// The link.
        link: u32,
    },
    /// The link's dof range runs past the end of `dof_length`.
    DofRangeOutOfBounds {
        /// The link.
        link: u32,
    },
    /// A `dof_length` that is negative, NaN or infinite.
    BadDofLength {
        /// The dof.
        dof: u32,
    },
}

impl core::fmt::Display for TopologyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TopologyError::TooManyLinks => write!(f, "more than {MAX_LINKS} links"),
            TopologyError::ParentNotBefore { link } => {
                write!(f, "link {link}: parent must come before the link")
            }
            TopologyError::FixedUnderMovingParent { link } => {
                write!(f, "link {link}: fixed link under a moving parent")
            }
            TopologyError::FixedLinkWithDofs { link } => {
                write!(f, "link {link}: fixed link with dofs")
            }
            TopologyError::DofRangeOutOfBounds { link } => {
                write!(f, "link {link}: dof range past the end of dof_length")
            }
            TopologyError::BadDofLength { dof } => {
                write!(f, "dof {dof}: dof_length negative or not finite")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TopologyError {}

/// A validated, borrowed description of the scene's links and dofs.
///
/// Built once (validation is linear in links + dofs) and handed to every
/// step; the topology must stay the same for the lifetime of an
/// [`Islands`](crate::Islands) state (build a new state when it changes).
#[derive(Clone, Copy, Debug)]
pub struct Topology<'a, R> {
    links: &'a [Link],
    dof_length: &'a [R],
}

impl<'a, R: Real> Topology<'a, R> {
    /// Validates the links and dof lengths.
    ///
    /// `dof_length[d]` is the length that turns dof `d`'s velocity into a
    /// speed in m/s: `1` for a translational dof (m/s already), the swept
    /// radius in meters for a rotational one (rad/s times m). It must be
    /// finite and non-negative.
    ///
    /// Returns the first problem found, as a [`TopologyError`] naming the
    /// link or dof.
    pub fn new(links: &'a [Link], dof_length: &'a [R]) -> Result<Self, TopologyError> {
        if links.len() > MAX_LINKS || dof_length.len() > MAX_LINKS {
            return Err(TopologyError::TooManyLinks);
        }
        for (i, link) in links.iter().enumerate() {
            let id = i as u32;
            let parent_fixed = if link.parent == NO_PARENT {
                true
            } else if link.parent < id {
                links[link.parent as usize].fixed
            } else {
                return Err(TopologyError::ParentNotBefore { link: id });
            };
            if link.fixed && !parent_fixed {
                return Err(TopologyError::FixedUnderMovingParent { link: id });
            }
            if link.fixed && link.dof_count != 0 {
                return Err(TopologyError::FixedLinkWithDofs { link: id });
            }
            let end = link.dof_start as u64 + link.dof_count as u64;
            if end > dof_length.len() as u64 {
                return Err(TopologyError::DofRangeOutOfBounds { link: id });
            }
        }
        for (d, &len) in dof_length.iter().enumerate() {
            if !(len.finite() && len >= R::ZERO) {
                return Err(TopologyError::BadDofLength { dof: d as u32 });
            }
        }
        Ok(Self { links, dof_length })
    }

    /// The links, as given.
    #[inline]
    pub fn links(&self) -> &'a [Link] {
        self.links
    }

    /// The number of links.
    #[inline]
    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    /// The number of dofs (the length of `dof_length`; the velocity array a
    /// step reads must be at least this long).
    #[inline]
    pub fn dof_count(&self) -> usize {
        self.dof_length.len()
    }

    /// The per-dof lengths, as given (meters, or 1 for translational dofs).
    #[inline]
    pub fn dof_length(&self) -> &'a [R] {
        self.dof_length
    }

    /// The range of link `link`'s dofs in the flat velocity array; empty for
    /// an index out of range.
    #[inline]
    pub fn dofs(&self, link: u32) -> core::ops::Range<usize> {
        match self.links.get(link as usize) {
            Some(l) => l.dof_start as usize..(l.dof_start + l.dof_count) as usize,
            None => 0..0,
        }
    }

    /// `true` when link `link`'s weighted speed is below `thresh` on every
    /// dof: `|dof_vel[d]| * dof_length[d] < thresh` (m/s). A NaN or infinite
    /// velocity is not still. `dof_vel` shorter than the link's dofs counts
    /// as not still.
    #[inline]
    pub(crate) fn is_still(&self, link: usize, dof_vel: &[R], thresh: R) -> bool {
        let Some(l) = self.links.get(link) else {
            return false;
        };
        let range = l.dof_start as usize..(l.dof_start + l.dof_count) as usize;
        let (Some(vel), Some(len)) = (dof_vel.get(range.clone()), self.dof_length.get(range))
        else {
            return false;
        };
        vel.iter()
            .zip(len.iter())
            .all(|(&v, &w)| (v * w).abs() < thresh)
    }
}
