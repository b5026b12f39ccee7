//! The pair filters: which overlapping pairs cannot physically collide.

use crate::Geom;
use crate::NO_LINK;

/// Which filters drop an overlapping pair; each can be switched on its own.
///
/// A pair whose AABBs overlap is reported unless an enabled filter drops it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Filters {
    /// Drop two geometries on the same link.
    pub same_link: bool,
    /// Drop two geometries on directly connected links (one link is the
    /// other's parent).
    pub parent_child: bool,
    /// MuJoCo's rule: keep a pair only when
    /// `(contype_a & conaffinity_b) != 0 || (contype_b & conaffinity_a) != 0`.
    pub masks: bool,
    /// Drop two geometries that are both fixed to the world.
    pub both_fixed: bool,
    /// Drop two geometries that both sleep (a pair with one awake side is
    /// kept). With this filter on, sleeping geometries leave the sweep and
    /// cost (almost) nothing per frame.
    pub both_asleep: bool,
}

impl Filters {
    /// Every filter on (the default).
    pub const ALL: Self = Self {
        same_link: true,
        parent_child: true,
        masks: true,
        both_fixed: true,
        both_asleep: true,
    };

    /// Every filter off: every overlapping pair is reported.
    pub const NONE: Self = Self {
        same_link: false,
        parent_child: false,
        masks: false,
        both_fixed: false,
        both_asleep: false,
    };

    /// `true` when the enabled filters keep the pair `(a, b)`; the AABBs are
    /// not looked at.
    #[inline]
    pub fn keeps<R>(&self, a: &Geom<R>, b: &Geom<R>) -> bool {
        self.keeps_keys(&FilterKey::of(a), &FilterKey::of(b))
    }

    /// [`Self::keeps`] on the filter fields alone.
    #[inline(always)]
    pub(crate) fn keeps_keys(&self, a: &FilterKey, b: &FilterKey) -> bool {
        if self.same_link && a.link == b.link {
            return false;
        }
        if self.parent_child
            && ((a.parent_link != NO_LINK && a.parent_link == b.link)
                || (b.parent_link != NO_LINK && b.parent_link == a.link))
        {
            return false;
        }
        if self.masks && (a.contype & b.conaffinity) == 0 && (b.contype & a.conaffinity) == 0 {
            return false;
        }
        if self.both_fixed && a.flags & b.flags & FilterKey::FIXED != 0 {
            return false;
        }
        !(self.both_asleep && a.flags & b.flags & FilterKey::ASLEEP != 0)
    }
}

/// A geometry's filter fields, packed (16 bytes and a flag byte), kept per
/// geometry for the sweep.
///
/// Opaque storage for [`Buffers`](crate::Buffers); create with `Default`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterKey {
    link: u32,
    parent_link: u32,
    contype: u32,
    conaffinity: u32,
    flags: u8,
}

impl FilterKey {
    const FIXED: u8 = 1;
    const ASLEEP: u8 = 2;

    /// The filter fields of `g`.
    #[inline(always)]
    pub(crate) fn of<R>(g: &Geom<R>) -> Self {
        Self {
            link: g.link,
            parent_link: g.parent_link,
            contype: g.contype,
            conaffinity: g.conaffinity,
            flags: (u8::from(g.fixed) * Self::FIXED) | (u8::from(g.asleep) * Self::ASLEEP),
        }
    }
}

impl Default for Filters {
    fn default() -> Self {
        Self::ALL
    }
}
