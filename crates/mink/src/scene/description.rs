//! What a scene is made of: geometries on links, the links' tree and dofs,
//! and the equality constraints. Borrowed and validated once; the per-step
//! state (link poses, velocities) is handed to each step.

use crate::collider::Collider;
use crate::shape::NoCustomShape;
use mink_islands::{Link, Topology, TopologyError, NO_PARENT};
use mink_support::{Iso3, Real};

/// The most geometries a scene holds (geometry ids are `u32`, and the broad
/// phase caps its input at [`mink_broadphase::MAX_GEOMS`]).
pub const MAX_SCENE_GEOMS: usize = mink_broadphase::MAX_GEOMS;

/// One geometry of a scene: a collider fixed to a link.
#[derive(Clone, Copy, Debug)]
pub struct GeomDesc<'a, R: Real, U = NoCustomShape> {
    /// The shape, in its own frame.
    pub collider: Collider<'a, R, U>,
    /// The link (rigid body) carrying it: an index into the scene's links.
    pub link: u32,
    /// The shape frame in the link frame (meters).
    pub local_pose: Iso3<R>,
    /// The contact type bitmask (MuJoCo's `contype`).
    pub contype: u32,
    /// The contact affinity bitmask (MuJoCo's `conaffinity`): a pair is
    /// tested when `contype_a & conaffinity_b` or `contype_b & conaffinity_a`
    /// is non-zero.
    pub conaffinity: u32,
    /// Contact margin in meters (finite, `>= 0`): the world AABB is grown by
    /// it, and a pair closer than the sum of the two margins gives
    /// speculative contacts (negative depth).
    pub margin: R,
}

impl<'a, R: Real, U> GeomDesc<'a, R, U> {
    /// `collider` on `link` at the link's origin, masks `1`/`1`, no margin.
    pub fn new(collider: impl Into<Collider<'a, R, U>>, link: u32) -> Self {
        Self {
            collider: collider.into(),
            link,
            local_pose: Iso3::IDENTITY,
            contype: 1,
            conaffinity: 1,
            margin: R::ZERO,
        }
    }

    /// The same geometry placed at `local_pose` (shape frame to link frame).
    pub fn with_pose(self, local_pose: Iso3<R>) -> Self {
        Self { local_pose, ..self }
    }

    /// The same geometry with masks `contype` and `conaffinity`.
    pub fn with_masks(self, contype: u32, conaffinity: u32) -> Self {
        Self {
            contype,
            conaffinity,
            ..self
        }
    }

    /// The same geometry with a contact margin of `margin` meters.
    pub fn with_margin(self, margin: R) -> Self {
        Self { margin, ..self }
    }
}

/// Why a [`SceneDesc`] was refused; each variant names the offending item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescError {
    /// More than [`MAX_SCENE_GEOMS`] geometries.
    TooManyGeoms {
        /// How many were given.
        count: usize,
    },
    /// The geometry's link index is not a link of the scene.
    GeomLinkOutOfRange {
        /// The geometry.
        geom: u32,
    },
    /// The geometry's margin is negative or not finite.
    BadMargin {
        /// The geometry.
        geom: u32,
    },
    /// The geometry's local pose is not finite.
    BadLocalPose {
        /// The geometry.
        geom: u32,
    },
    /// Constraint `index` names a link out of range.
    ConstraintOutOfRange {
        /// The constraint's position in the list.
        index: u32,
    },
    /// The links and dof lengths do not form a valid topology.
    Topology(TopologyError),
}

impl core::fmt::Display for DescError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DescError::TooManyGeoms { count } => write!(f, "{count} geometries is too many"),
            DescError::GeomLinkOutOfRange { geom } => {
                write!(f, "geometry {geom}: link out of range")
            }
            DescError::BadMargin { geom } => {
                write!(f, "geometry {geom}: margin negative or not finite")
            }
            DescError::BadLocalPose { geom } => write!(f, "geometry {geom}: local pose not finite"),
            DescError::ConstraintOutOfRange { index } => {
                write!(f, "constraint {index}: link out of range")
            }
            DescError::Topology(e) => write!(f, "topology: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DescError {}

/// A validated, borrowed scene: geometries, links (parents first, as
/// [`Link`] in `mink-islands`), per-dof lengths for hibernation, and
/// equality constraints as link pairs. `Copy`: many environments can share
/// one description.
#[derive(Debug)]
pub struct SceneDesc<'d, R: Real, U = NoCustomShape> {
    geoms: &'d [GeomDesc<'d, R, U>],
    topology: Topology<'d, R>,
    constraints: &'d [[u32; 2]],
}

impl<R: Real, U> Clone for SceneDesc<'_, R, U> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Real, U> Copy for SceneDesc<'_, R, U> {}

impl<'d, R: Real, U> SceneDesc<'d, R, U> {
    /// Validates the scene: every geometry on an existing link with a
    /// finite local pose and a finite, non-negative margin; the links and
    /// dof lengths as [`Topology::new`] checks them (`dof_length[d]`: 1 for
    /// a translational dof, the swept radius in meters for a rotational
    /// one); every constraint between existing links.
    ///
    /// Returns the first problem found, naming it.
    pub fn new(
        geoms: &'d [GeomDesc<'d, R, U>],
        links: &'d [Link],
        dof_length: &'d [R],
        constraints: &'d [[u32; 2]],
    ) -> Result<Self, DescError> {
        if geoms.len() > MAX_SCENE_GEOMS {
            return Err(DescError::TooManyGeoms { count: geoms.len() });
        }
        let topology = Topology::new(links, dof_length).map_err(DescError::Topology)?;
        let n_links = links.len();
        for (i, g) in geoms.iter().enumerate() {
            let geom = i as u32;
            if g.link as usize >= n_links {
                return Err(DescError::GeomLinkOutOfRange { geom });
            }
            if !(g.margin.finite() && g.margin >= R::ZERO) {
                return Err(DescError::BadMargin { geom });
            }
            if !g.local_pose.is_finite() {
                return Err(DescError::BadLocalPose { geom });
            }
        }
        if let Some(i) = constraints
            .iter()
            .position(|&[a, b]| a as usize >= n_links || b as usize >= n_links)
        {
            return Err(DescError::ConstraintOutOfRange { index: i as u32 });
        }
        Ok(Self {
            geoms,
            topology,
            constraints,
        })
    }

    /// The geometries, as given (a geometry's id is its index).
    pub fn geoms(&self) -> &'d [GeomDesc<'d, R, U>] {
        self.geoms
    }

    /// The links, as given (a link's id is its index).
    pub fn links(&self) -> &'d [Link] {
        self.topology.links()
    }

    /// The validated topology handed to the islands.
    pub fn topology(&self) -> &Topology<'d, R> {
        &self.topology
    }

    /// The equality constraints, as `[link_a, link_b]` pairs.
    pub fn constraints(&self) -> &'d [[u32; 2]] {
        self.constraints
    }

    /// Number of links.
    pub fn link_count(&self) -> usize {
        self.topology.link_count()
    }

    /// Number of dofs (the length of the velocity array a step reads).
    pub fn dof_count(&self) -> usize {
        self.topology.dof_count()
    }

    /// The root of `link`'s articulation (the ancestor with no parent; the
    /// link itself for a free body): the scene's notion of an *entity*.
    /// Returns `link` unchanged for an index out of range.
    pub fn root_of(&self, link: u32) -> u32 {
        root_of(self.links(), link)
    }
}

/// The articulation root of `link` in `links` (parents come first, so the
/// walk strictly descends and ends within `links.len()` steps).
pub(crate) fn root_of(links: &[Link], link: u32) -> u32 {
    let mut l = link;
    for _ in 0..links.len() {
        match links.get(l as usize) {
            Some(info) if info.parent != NO_PARENT && info.parent < l => l = info.parent,
            _ => break,
        }
    }
    l
}
