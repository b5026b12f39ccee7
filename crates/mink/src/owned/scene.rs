//! [`OwnedSceneDesc`]: a scene description that owns its parts, to keep in a
//! file and to turn into the borrowed [`SceneDesc`] a scene runs on.

use super::OwnedShape;
use crate::collider::Collider;
use crate::scene::{DescError, GeomDesc, SceneConfig, SceneDesc};
use crate::shape::NoCustomShape;
use alloc::vec::Vec;
use mink_islands::Link;
use mink_support::{Iso3, Real};

/// One geometry of an [`OwnedSceneDesc`]: [`GeomDesc`] with an owned convex
/// shape (or half-space).
///
/// With `serde`, every field but `shape` and `link` may be left out when
/// reading: `local_pose` is then the identity, the masks `1`, the margin 0
/// (as [`GeomDesc::new`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct OwnedGeomDesc<R: Real, U = NoCustomShape> {
    /// The shape, in its own frame.
    pub shape: OwnedShape<R, U>,
    /// The link carrying it: an index into the scene's links.
    pub link: u32,
    /// The shape frame in the link frame (meters).
    #[cfg_attr(feature = "serde", serde(default = "identity"))]
    pub local_pose: Iso3<R>,
    /// The contact type bitmask (MuJoCo's `contype`).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub contype: u32,
    /// The contact affinity bitmask (MuJoCo's `conaffinity`).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub conaffinity: u32,
    /// Contact margin in meters (finite, `>= 0`, checked by
    /// [`OwnedSceneDesc::desc`]).
    #[cfg_attr(feature = "serde", serde(default = "zero"))]
    pub margin: R,
}

/// The default mask.
#[cfg(feature = "serde")]
fn one() -> u32 {
    1
}

/// The default local pose.
#[cfg(feature = "serde")]
fn identity<R: Real>() -> Iso3<R> {
    Iso3::IDENTITY
}

/// The default margin.
#[cfg(feature = "serde")]
fn zero<R: Real>() -> R {
    R::ZERO
}

/// A scene description that owns its geometries, links, dof lengths and
/// constraints, and the [`SceneConfig`] to run it with: what a scene file
/// holds (with `serde`, it reads and writes as a struct of those fields;
/// `constraints` and `config` may be left out, meaning none and
/// [`SceneConfig::new`]).
///
/// The geometries are convex shapes and half-spaces ([`OwnedShape`]).
/// Height fields, meshes and shapes carrying a signed distance field borrow
/// baked data with formats of their own (a height field's heights, a
/// field's blob): [`OwnedSceneDesc::from_desc`] refuses them, naming the
/// geometry.
///
/// ```
/// use mink::owned::{OwnedGeomDesc, OwnedSceneDesc, OwnedShape};
/// use mink::islands::{Link, NO_PARENT};
/// use mink::scene::SceneConfig;
/// use mink::support::{Iso3, Sphere, Vec3};
///
/// let ball: OwnedGeomDesc<f64> = OwnedGeomDesc {
///     shape: OwnedShape::from(Sphere::new(0.1).unwrap()),
///     link: 0,
///     local_pose: Iso3::IDENTITY,
///     contype: 1,
///     conaffinity: 1,
///     margin: 0.0,
/// };
/// let scene = OwnedSceneDesc {
///     geoms: vec![ball.clone(), OwnedGeomDesc { link: 1, ..ball }],
///     links: vec![
///         Link { parent: NO_PARENT, fixed: false, dof_start: 0, dof_count: 3 },
///         Link { parent: NO_PARENT, fixed: false, dof_start: 3, dof_count: 3 },
///     ],
///     dof_length: vec![1.0; 6],
///     constraints: vec![],
///     config: SceneConfig::new(),
/// };
/// // The borrowed description a `Scene` runs on:
/// let geoms = scene.geom_descs();
/// let desc = scene.desc(&geoms).unwrap();
/// assert_eq!(desc.geoms().len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct OwnedSceneDesc<R: Real, U = NoCustomShape> {
    /// The geometries (a geometry's id is its index).
    pub geoms: Vec<OwnedGeomDesc<R, U>>,
    /// The links, parents first (a link's id is its index).
    pub links: Vec<Link>,
    /// Per dof: 1 for a translational dof, the swept radius in meters for a
    /// rotational one (hibernation's velocity scale).
    pub dof_length: Vec<R>,
    /// Equality constraints as `[link_a, link_b]` pairs.
    #[cfg_attr(feature = "serde", serde(default))]
    pub constraints: Vec<[u32; 2]>,
    /// How the scene runs its steps.
    #[cfg_attr(feature = "serde", serde(default))]
    pub config: SceneConfig<R>,
}

/// Why [`OwnedSceneDesc::from_desc`] could not copy a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnedSceneError {
    /// The geometry is a height field, a mesh or a shape with a field:
    /// borrowed baked data this description does not hold.
    NotConvex {
        /// The geometry.
        geom: u32,
    },
    /// The geometry's hull view is over inconsistent arrays (built with
    /// [`HullView::new_unchecked`](mink_support::HullView::new_unchecked)).
    BadHull {
        /// The geometry.
        geom: u32,
    },
}

impl core::fmt::Display for OwnedSceneError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            OwnedSceneError::NotConvex { geom } => write!(
                f,
                "geometry {geom}: a height field, mesh or field is not held by an owned description"
            ),
            OwnedSceneError::BadHull { geom } => {
                write!(f, "geometry {geom}: its hull arrays are inconsistent")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OwnedSceneError {}

impl<R: Real, U: Clone> OwnedSceneDesc<R, U> {
    /// The geometries as the borrowed [`GeomDesc`]s that
    /// [`OwnedSceneDesc::desc`] takes (hulls borrow from `self`).
    pub fn geom_descs(&self) -> Vec<GeomDesc<'_, R, U>> {
        self.geoms
            .iter()
            .map(|g| GeomDesc {
                collider: Collider::Convex(g.shape.as_shape()),
                link: g.link,
                local_pose: g.local_pose,
                contype: g.contype,
                conaffinity: g.conaffinity,
                margin: g.margin,
            })
            .collect()
    }

    /// The validated, borrowed description ([`SceneDesc::new`], whose errors
    /// it returns) over `geoms`, which must be `self.geom_descs()` (or any
    /// geometries of your own, with this description's links and
    /// constraints).
    pub fn desc<'d>(
        &'d self,
        geoms: &'d [GeomDesc<'d, R, U>],
    ) -> Result<SceneDesc<'d, R, U>, DescError> {
        SceneDesc::new(geoms, &self.links, &self.dof_length, &self.constraints)
    }

    /// An owned copy of `desc`, run with `config`. Refuses a geometry that is
    /// not a convex shape or half-space, or whose hull view is over
    /// inconsistent arrays, naming it.
    pub fn from_desc(
        desc: &SceneDesc<'_, R, U>,
        config: SceneConfig<R>,
    ) -> Result<Self, OwnedSceneError> {
        let mut geoms = Vec::with_capacity(desc.geoms().len());
        for (i, g) in desc.geoms().iter().enumerate() {
            let geom = i as u32;
            let Collider::Convex(shape) = &g.collider else {
                return Err(OwnedSceneError::NotConvex { geom });
            };
            let shape =
                OwnedShape::from_shape(shape).map_err(|_| OwnedSceneError::BadHull { geom })?;
            geoms.push(OwnedGeomDesc {
                shape,
                link: g.link,
                local_pose: g.local_pose,
                contype: g.contype,
                conaffinity: g.conaffinity,
                margin: g.margin,
            });
        }
        Ok(Self {
            geoms,
            links: desc.links().to_vec(),
            dof_length: desc.topology().dof_length().to_vec(),
            constraints: desc.constraints().to_vec(),
            config,
        })
    }
}
