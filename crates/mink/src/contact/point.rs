//! One contact point, and a fixed-capacity manifold of them.

use mink_support::{Real, Vec3};

/// The most points a convex pair's manifold holds (a face on a face is
/// reduced to four).
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// One contact between two shapes, world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint<R> {
    /// Midpoint of the two surface points of the contact.
    pub position: Vec3<R>,
    /// Unit normal from A towards B.
    pub normal: Vec3<R>,
    /// Penetration depth: positive when overlapping, minus the gap for a
    /// speculative contact.
    pub depth: R,
}

impl<R: Real> ContactPoint<R> {
    /// The same contact seen with A and B swapped: the normal negated, the
    /// position and depth unchanged (the midpoint and the overlap do not
    /// depend on the order).
    pub fn mirrored(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

/// Up to [`MAX_MANIFOLD_POINTS`] contact points, in no particular order,
/// stored inline (no allocation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<R> {
    points: [ContactPoint<R>; MAX_MANIFOLD_POINTS],
    len: u8,
}

impl<R: Real> Manifold<R> {
    /// An empty manifold.
    pub fn new() -> Self {
        let zero = ContactPoint {
            position: Vec3::ZERO,
            normal: Vec3::X,
            depth: R::ZERO,
        };
        Self {
            points: [zero; MAX_MANIFOLD_POINTS],
            len: 0,
        }
    }

    /// Appends `point`; returns `false` (and drops it) when full.
    pub fn push(&mut self, point: ContactPoint<R>) -> bool {
        let len = usize::from(self.len);
        if len == MAX_MANIFOLD_POINTS {
            return false;
        }
        self.points[len] = point;
        self.len += 1;
        true
    }

    /// Removes every point.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The points.
    pub fn as_slice(&self) -> &[ContactPoint<R>] {
        &self.points[..usize::from(self.len)]
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// `true` when there is no point.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same manifold seen with A and B swapped: every point
    /// [`mirrored`](ContactPoint::mirrored), in the same order.
    pub fn mirrored(mut self) -> Self {
        for p in &mut self.points[..usize::from(self.len)] {
            *p = p.mirrored();
        }
        self
    }

    /// The deepest point, if any.
    pub fn deepest(&self) -> Option<&ContactPoint<R>> {
        self.as_slice()
            .iter()
            .reduce(|best, p| if p.depth > best.depth { p } else { best })
    }
}

impl<R: Real> Default for Manifold<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// A manifold writes as the sequence of its points and reads back from one
/// of at most [`MAX_MANIFOLD_POINTS`] points (more is an error).
#[cfg(feature = "serde")]
impl<R: Real + serde::Serialize> serde::Serialize for Manifold<R> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

#[cfg(feature = "serde")]
impl<'de, R: Real + serde::Deserialize<'de>> serde::Deserialize<'de> for Manifold<R> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let points =
            heapless::Vec::<ContactPoint<R>, MAX_MANIFOLD_POINTS>::deserialize(deserializer)?;
        let mut manifold = Manifold::new();
        for p in points {
            manifold.push(p);
        }
        Ok(manifold)
    }
}
