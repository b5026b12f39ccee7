//! The scene's contact record and the queries over a step's contacts.
//!
//! A step's contacts sit in one flat, contiguous buffer, ordered by pair
//! (the broad phase's pair order, then the pairs found after a wake), each
//! pair's points together. Every contact of a pair has `geom_a < geom_b`.

use super::description::root_of;
use mink_islands::Link;
use mink_support::{Real, Vec3};

/// One contact point of a step, world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Contact<R> {
    /// Geometry id of side A.
    pub geom_a: u32,
    /// Geometry id of side B.
    pub geom_b: u32,
    /// Link carrying geometry A.
    pub link_a: u32,
    /// Link carrying geometry B.
    pub link_b: u32,
    /// Contact point: the midpoint of the two surface points, world frame.
    pub position: Vec3<R>,
    /// Unit normal from A towards B, world frame.
    pub normal: Vec3<R>,
    /// Penetration depth, meters: positive when overlapping, minus the gap
    /// for a speculative contact within the pair's margin.
    pub depth: R,
}

impl<R: Real> Contact<R> {
    /// The same contact seen from the other side: A and B swapped, the
    /// normal negated (position and depth unchanged).
    pub fn flipped(&self) -> Self {
        Self {
            geom_a: self.geom_b,
            geom_b: self.geom_a,
            link_a: self.link_b,
            link_b: self.link_a,
            position: self.position,
            normal: -self.normal,
            depth: self.depth,
        }
    }

    /// The contact oriented so that `link` is side A (flipped when it was
    /// side B); unchanged when `link` is A or on neither side.
    pub fn oriented_from(&self, link: u32) -> Self {
        if self.link_a != link && self.link_b == link {
            self.flipped()
        } else {
            *self
        }
    }

    /// `true` when `link` carries side A or side B.
    pub fn involves(&self, link: u32) -> bool {
        self.link_a == link || self.link_b == link
    }
}

/// Which contacts an entity query returns, as Genesis'
/// `get_contacts(with_entity, exclude_self_contact)`.
///
/// An *entity* is an articulation, named by its root link (see
/// [`SceneDesc::root_of`](super::SceneDesc::root_of)); a free body is an
/// entity of one link. A *self-contact* is a contact whose two sides belong
/// to the same entity (the same link, or two links of one articulation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntityFilter {
    /// Keep only contacts against this other entity (a root link). Naming
    /// the queried entity itself keeps only its self-contacts.
    pub with_entity: Option<u32>,
    /// Drop self-contacts.
    pub exclude_self_contact: bool,
}

/// Iterator over the contacts of one link, oriented so that the link is
/// side A (see [`contacts_of`]).
#[derive(Clone, Debug)]
pub struct ContactsOf<'s, R> {
    contacts: core::slice::Iter<'s, Contact<R>>,
    link: u32,
}

impl<R: Real> Iterator for ContactsOf<'_, R> {
    type Item = Contact<R>;

    fn next(&mut self) -> Option<Contact<R>> {
        let link = self.link;
        self.contacts
            .find(|c| c.involves(link))
            .map(|c| c.oriented_from(link))
    }
}

/// Iterator over the contacts between two links, oriented so that the
/// first is side A (see [`contacts_between`]).
#[derive(Clone, Debug)]
pub struct ContactsBetween<'s, R> {
    contacts: core::slice::Iter<'s, Contact<R>>,
    a: u32,
    b: u32,
}

impl<R: Real> Iterator for ContactsBetween<'_, R> {
    type Item = Contact<R>;

    fn next(&mut self) -> Option<Contact<R>> {
        let (a, b) = (self.a, self.b);
        self.contacts
            .find(|c| (c.link_a == a && c.link_b == b) || (c.link_a == b && c.link_b == a))
            .map(|c| c.oriented_from(a))
    }
}

/// Iterator over the contacts of one entity (see [`contacts_of_entity`]).
#[derive(Clone, Debug)]
pub struct EntityContacts<'s, R> {
    contacts: core::slice::Iter<'s, Contact<R>>,
    links: &'s [Link],
    entity: u32,
    filter: EntityFilter,
}

impl<R: Real> Iterator for EntityContacts<'_, R> {
    type Item = Contact<R>;

    fn next(&mut self) -> Option<Contact<R>> {
        let (links, entity, filter) = (self.links, self.entity, self.filter);
        self.contacts.find_map(|c| {
            let (ra, rb) = (root_of(links, c.link_a), root_of(links, c.link_b));
            let c = if ra == entity {
                *c
            } else if rb == entity {
                c.flipped()
            } else {
                return None;
            };
            // Now side A is on the entity; `other` is B's entity.
            let other = if ra == entity { rb } else { ra };
            let is_self = other == entity;
            if filter.exclude_self_contact && is_self {
                return None;
            }
            match filter.with_entity {
                Some(w) if w != other => None,
                _ => Some(c),
            }
        })
    }
}

/// The contacts of `contacts` that involve `link`, each oriented so that
/// `link` is side A (normal from `link` towards the other side). A contact
/// of the link with itself (two geometries on the same link, only with the
/// same-link filter off) comes out once, as stored.
pub fn contacts_of<R: Real>(contacts: &[Contact<R>], link: u32) -> ContactsOf<'_, R> {
    ContactsOf {
        contacts: contacts.iter(),
        link,
    }
}

/// The contacts of `contacts` between links `a` and `b` (either order),
/// each oriented so that `a` is side A.
pub fn contacts_between<R: Real>(
    contacts: &[Contact<R>],
    a: u32,
    b: u32,
) -> ContactsBetween<'_, R> {
    ContactsBetween {
        contacts: contacts.iter(),
        a,
        b,
    }
}

/// The contacts of `contacts` involving entity `entity` (an articulation
/// root in `links`), each oriented so that the entity is side A, and kept
/// by `filter` (see [`EntityFilter`]). A self-contact is oriented as
/// stored.
pub fn contacts_of_entity<'s, R: Real>(
    contacts: &'s [Contact<R>],
    links: &'s [Link],
    entity: u32,
    filter: EntityFilter,
) -> EntityContacts<'s, R> {
    EntityContacts {
        contacts: contacts.iter(),
        links,
        entity,
        filter,
    }
}

/// `true` when `contact` is a self-contact in `links`: both sides on the
/// same link or on links of the same articulation (same root).
pub fn is_self_contact<R>(contact: &Contact<R>, links: &[Link]) -> bool {
    root_of(links, contact.link_a) == root_of(links, contact.link_b)
}
