//! mink's parent–child collision filter on rapier's side: colliders of an
//! articulation's adjacent links give no contacts.
//!
//! The replay's colliders have no rigid bodies and no joints, so rapier
//! knows nothing of the links. Each collider carries its link and parent
//! link in its `user_data` ([`link_data`]); colliders with a parent link
//! turn on the contact-pair hook, and [`LinkFilter`] drops a pair when one
//! collider's parent link is the other's link, as mink's broad phase does.
//! Pairs of two colliders without a parent never call the hook.

use super::scenes::BodyDesc;
use rapier3d::prelude::{
    ActiveHooks, ColliderBuilder, PairFilterContext, PhysicsHooks, SolverFlags,
};

/// The link stored for the ground: no body's link or parent.
const GROUND_LINK: u32 = u32::MAX;

/// `user_data` of a collider on `link` whose parent link is `parent`:
/// the link in the low 32 bits, the parent plus one above (0: none).
fn pack(link: u32, parent: Option<u32>) -> u128 {
    u128::from(link) | (u128::from(parent.map_or(0, |p| u64::from(p) + 1)) << 32)
}

/// The link and parent link of a collider's `user_data` ([`pack`]).
fn unpack(data: u128) -> (u32, Option<u32>) {
    let parent = (data >> 32) as u64;
    (data as u32, parent.checked_sub(1).map(|p| p as u32))
}

/// `builder` with `body`'s link and parent link in its `user_data`, and
/// the contact-pair hook on when it has a parent link.
pub fn link_data(builder: ColliderBuilder, body: &BodyDesc) -> ColliderBuilder {
    let builder = builder.user_data(pack(body.link, body.parent_link));
    if body.parent_link.is_some() {
        builder.active_hooks(ActiveHooks::FILTER_CONTACT_PAIRS)
    } else {
        builder
    }
}

/// `builder` marked as the ground (linked to nothing).
pub fn ground_data(builder: ColliderBuilder) -> ColliderBuilder {
    builder.user_data(pack(GROUND_LINK, None))
}

/// The hooks that drop parent–child pairs (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct LinkFilter;

impl PhysicsHooks for LinkFilter {
    fn filter_contact_pair(&self, context: &PairFilterContext<'_>) -> Option<SolverFlags> {
        let link = |h| context.colliders.get(h).map(|c| unpack(c.user_data));
        let (Some((a, pa)), Some((b, pb))) = (link(context.collider1), link(context.collider2))
        else {
            return Some(SolverFlags::default());
        };
        if pa == Some(b) || pb == Some(a) {
            None
        } else {
            Some(SolverFlags::default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        for (link, parent) in [(0, None), (0, Some(0)), (7, Some(3)), (u32::MAX, None)] {
            assert_eq!(unpack(pack(link, parent)), (link, parent));
        }
        assert_eq!(unpack(pack(5, Some(u32::MAX - 1))), (5, Some(u32::MAX - 1)));
    }
}
