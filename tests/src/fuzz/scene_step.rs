//! The `scene_step` fuzz target: a small decoded scene (up to 4 links, 2
//! to 7 geometries of every shape kind of [`super::shapes`], masks,
//! margins, local poses, filters, method, warm start) stepped 1 to 4
//! times through [`SceneBuf::step`] with decoded motion, in f32 and f64.
//! Each step's contacts are compared with a brute-force narrow phase:
//! [`mink::collide`] called directly on every pair of geometries that the
//! filters keep (the filters written out again here, not the broad
//! phase's), with the same margins, method and point cap.
//!
//! Input layout: a byte for the link count (1 to 4) and one per link
//! (bit 0: link 0 is the fixed world; bit 1: a child of an earlier link);
//! a byte for the geometry count, then per geometry its shape, a byte for
//! its link, a byte for its masks (low nibble zero: 1/1), a margin byte,
//! a local pose; a byte of filter flags and one of settings (method,
//! warm start, point cap); a byte for the step count; per step, each
//! link's pose.
//!
//! The checks, with `tol` = [`rel_tol`] × the scene's size:
//! - the step succeeds, its report counts the contacts and pairs in
//!   contact it returned, every contact has `geom_a < geom_b` and the
//!   links of its geometries, and no pair the filters drop has a contact;
//! - without warm start, each pair's contacts are exactly (bit for bit)
//!   the brute-force ones; with it, the pair is in contact in both or in
//!   neither unless its certified distance is within `tol` of its margin,
//!   and the deepest depths agree within `tol` plus the feature slop
//!   (`FEATURE_SLOP_FRACTION` of the pair's smaller shape): a manifold's
//!   deepest point stands for its first contact within that slop (the
//!   `contact_manifold` target checks it), and a warm-started query,
//!   whose first contact differs by round-off, may pick another point
//!   within it (one turned past the other shape's edge on one side of the
//!   slack and kept, dropped on the other).

use super::bytes::ByteReader;
use super::shapes::{
    decode_margin, decode_pose, decode_rotation, decode_shape, length, rel_tol, ShapeSpec,
};
use super::umbrella_queries::METHODS;
use mink::broadphase::Filters;
use mink::contact::{ContactParams, ContactPoint, FEATURE_SLOP_FRACTION, MAX_MANIFOLD_POINTS};
use mink::islands::{Link, Params, NO_PARENT};
use mink::query::Status;
use mink::scene::{Contact, GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{Iso3, Real, Vec3};
use mink::{collide, distance, Body, Collider, Method, Shape};
use std::collections::BTreeMap;

/// Most geometries of a decoded scene.
pub const MAX_SCENE_GEOMS: usize = 7;

/// Most links of a decoded scene.
pub const MAX_SCENE_LINKS: usize = 4;

/// Most steps of a decoded scene.
pub const MAX_STEPS: usize = 4;

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Checked; no step had a contact.
    NoContact,
    /// Checked; some step had contacts.
    Contacts,
}

/// One decoded geometry before its shape is built.
struct GeomSpec<R: Real> {
    shape: ShapeSpec<R>,
    link: u32,
    contype: u32,
    conaffinity: u32,
    margin: f64,
    local: Iso3<R>,
}

/// A geometry as the filters see it: its link, contact type and affinity.
pub(super) type FilterKey = (u32, u32, u32);

/// `true` when the filters keep the pair of geometries `a` and `b`, from
/// the rules of `mink_broadphase::Filters` (geometries on fixed links count
/// as asleep; nothing else sleeps, hibernation is off).
pub(super) fn keeps(f: &Filters, links: &[Link], a: FilterKey, b: FilterKey) -> bool {
    let ((link_a, type_a, affinity_a), (link_b, type_b, affinity_b)) = (a, b);
    let (la, lb) = (&links[link_a as usize], &links[link_b as usize]);
    if f.same_link && link_a == link_b {
        return false;
    }
    let child_of = |l: &Link, p: u32| l.parent != NO_PARENT && l.parent == p;
    if f.parent_child && (child_of(la, link_b) || child_of(lb, link_a)) {
        return false;
    }
    if f.masks && type_a & affinity_b == 0 && type_b & affinity_a == 0 {
        return false;
    }
    if (f.both_fixed || f.both_asleep) && la.fixed && lb.fixed {
        return false;
    }
    true
}

impl<R: Real> GeomSpec<R> {
    /// The geometry as the filters see it.
    fn key(&self) -> FilterKey {
        (self.link, self.contype, self.conaffinity)
    }
}

/// A geometry's masks, margin and local pose, decoded after its shape: a
/// mask byte (low nibble zero: 1/1, else two bits each), a margin byte
/// ([`decode_margin`] of the shape's `extent`) and a local pose (identity
/// or one within 0.5 m).
pub(super) fn decode_mounting<R: Real>(
    r: &mut ByteReader<'_>,
    extent: f64,
) -> (u32, u32, f64, Iso3<R>) {
    let masks = r.u8();
    let (contype, conaffinity) = if masks & 15 == 0 {
        (1, 1)
    } else {
        (u32::from(masks & 3), u32::from((masks >> 2) & 3))
    };
    let margin = decode_margin(r, extent.max(0.02));
    let local = if r.u8() & 1 == 0 {
        Iso3::IDENTITY
    } else {
        decode_pose(r, 0.5)
    };
    (contype, conaffinity, margin, local)
}

/// The pair filters from one byte: each rule on unless its bit is set.
pub(super) fn decode_filters(r: &mut ByteReader<'_>) -> Filters {
    let fb = r.u8();
    Filters {
        same_link: fb & 1 == 0,
        parent_child: fb & 2 == 0,
        masks: fb & 4 == 0,
        both_fixed: fb & 8 == 0,
        both_asleep: fb & 16 == 0,
    }
}

/// One pose per link: the identity for a fixed link, else a decoded pose
/// within 2 m.
pub(super) fn decode_link_poses<R: Real>(r: &mut ByteReader<'_>, links: &[Link]) -> Vec<Iso3<R>> {
    links
        .iter()
        .map(|l| {
            if l.fixed {
                Iso3::IDENTITY
            } else {
                decode_pose(r, 2.0)
            }
        })
        .collect()
}

/// The deepest depth of a list of depths (`-inf` for none).
fn deepest(depths: impl Iterator<Item = f64>) -> f64 {
    depths.fold(f64::NEG_INFINITY, f64::max)
}

/// Decodes `data` in scalar `R`, steps the scene and compares every step
/// with the brute-force narrow phase: what it checked, or the first
/// mismatch.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<SceneOutcome, String> {
    let mut r = ByteReader::new(data);
    let n_links = 1 + usize::from(r.u8()) % MAX_SCENE_LINKS;
    let mut links = Vec::with_capacity(n_links);
    let mut dofs = 0u32;
    for i in 0..n_links {
        let b = r.u8();
        let link = if i == 0 && b & 1 != 0 {
            Link::world()
        } else if i > 0 && b & 2 != 0 {
            Link::child((u32::from(b) >> 2) % i as u32, dofs, 1)
        } else {
            Link::free(dofs, 6)
        };
        dofs += link.dof_count;
        links.push(link);
    }
    let dof_length = vec![R::ONE; dofs as usize];
    let n_geoms = 2 + usize::from(r.u8()) % (MAX_SCENE_GEOMS - 1);
    let mut specs = Vec::with_capacity(n_geoms);
    for _ in 0..n_geoms {
        let Some(shape) = decode_shape::<R>(&mut r) else {
            return Ok(SceneOutcome::Refused);
        };
        let link = u32::from(r.u8()) % n_links as u32;
        let (contype, conaffinity, margin, local) = decode_mounting(&mut r, shape.extent());
        specs.push(GeomSpec {
            shape,
            link,
            contype,
            conaffinity,
            margin,
            local,
        });
    }
    let shapes: Vec<Shape<'_, R>> = match specs.iter().map(|g| g.shape.shape()).collect() {
        Some(s) => s,
        None => return Ok(SceneOutcome::Refused),
    };
    let geoms: Vec<GeomDesc<'_, R>> = specs
        .iter()
        .zip(&shapes)
        .map(|(g, s)| {
            GeomDesc::new(*s, g.link)
                .with_pose(g.local)
                .with_masks(g.contype, g.conaffinity)
                .with_margin(R::lit(g.margin))
        })
        .collect();
    let filters = decode_filters(&mut r);
    let sb = r.u8();
    let mut config = SceneConfig::new();
    config.filters = filters;
    config.method = METHODS[usize::from(sb % 4)];
    config.warm_start = sb & 4 != 0;
    config.max_points_per_pair = 1 + usize::from(sb >> 3) % MAX_MANIFOLD_POINTS;
    config.hibernation = Params::no_hibernation();
    let desc = match SceneDesc::new(&geoms, &links, &dof_length, &[]) {
        Ok(d) => d,
        Err(e) => return Err(format!("the decoded scene is refused: {e}")),
    };
    let mut scene = SceneBuf::new(desc, config).map_err(|e| format!("SceneBuf::new: {e}"))?;
    let steps = 1 + usize::from(r.u8()) % MAX_STEPS;
    let velocities = vec![R::ZERO; dofs as usize];
    let mut poses: Vec<Iso3<R>> = decode_link_poses(&mut r, &links);
    let extent = specs
        .iter()
        .map(|g| g.shape.extent() + g.margin + g.local.translation.cast::<f64>().norm())
        .fold(0.0, f64::max);
    let mut any = false;
    for step in 0..steps {
        if step > 0 {
            // Each moving link moves by up to 0.2 m and turns a little or
            // anywhere.
            for (pose, link) in poses.iter_mut().zip(&links) {
                if link.fixed {
                    continue;
                }
                let d = Vec3::new(
                    length(&mut r, -0.2, 0.2),
                    length(&mut r, -0.2, 0.2),
                    length(&mut r, -0.2, 0.2),
                );
                let rot = decode_rotation::<R>(&mut r);
                *pose = Iso3::from_parts(rot.mul_mat(&pose.rotation), pose.translation + d.cast());
            }
        }
        let offsets = poses
            .iter()
            .map(|p| p.translation.cast::<f64>().norm())
            .fold(0.0, f64::max);
        let tol = rel_tol::<R>() * (extent + offsets);
        scene
            .step(&SceneInput::new(&poses, &velocities))
            .map_err(|e| format!("step {step}: {e}"))?;
        let contacts = scene.contacts();
        let report = scene.report();
        let mut got: BTreeMap<(u32, u32), Vec<Contact<R>>> = BTreeMap::new();
        for c in contacts {
            if c.geom_a >= c.geom_b
                || c.geom_b as usize >= specs.len()
                || c.link_a != specs[c.geom_a as usize].link
                || c.link_b != specs[c.geom_b as usize].link
            {
                return Err(format!("step {step}: malformed contact {c:?}"));
            }
            got.entry((c.geom_a, c.geom_b)).or_default().push(*c);
        }
        if report.contacts != contacts.len() || report.pairs_in_contact != got.len() {
            return Err(format!(
                "step {step}: report {report:?} for {} contacts in {} pairs",
                contacts.len(),
                got.len()
            ));
        }
        let world: Vec<Iso3<R>> = specs
            .iter()
            .map(|g| poses[g.link as usize].mul(&g.local))
            .collect();
        for i in 0..specs.len() {
            for j in i + 1..specs.len() {
                let key = (i as u32, j as u32);
                let scene_pts = got.remove(&key).unwrap_or_default();
                if !keeps(&filters, &links, specs[i].key(), specs[j].key()) {
                    if !scene_pts.is_empty() {
                        return Err(format!(
                            "step {step}: pair {key:?} is filtered out but has contacts"
                        ));
                    }
                    continue;
                }
                let margin = geoms[i].margin + geoms[j].margin;
                let params = ContactParams {
                    margin,
                    method: config.method,
                };
                let mut brute: Vec<ContactPoint<R>> = Vec::new();
                let (ci, cj): (Collider<'_, R>, Collider<'_, R>) =
                    (shapes[i].into(), shapes[j].into());
                collide(
                    &ci,
                    &world[i],
                    &cj,
                    &world[j],
                    &params,
                    config.max_points_per_pair,
                    |p| brute.push(p),
                );
                any |= !brute.is_empty();
                let what = || {
                    format!(
                        "step {step}: pair {key:?} ({} vs {}, warm start {})",
                        shapes[i].name(),
                        shapes[j].name(),
                        config.warm_start
                    )
                };
                if !config.warm_start {
                    let same = scene_pts.len() == brute.len()
                        && scene_pts.iter().zip(&brute).all(|(c, p)| {
                            c.position == p.position && c.normal == p.normal && c.depth == p.depth
                        });
                    if !same {
                        return Err(format!("{}: scene {scene_pts:?}, direct {brute:?}", what()));
                    }
                    continue;
                }
                if scene_pts.is_empty() != brute.is_empty() {
                    let d = distance(
                        &Body::new(&shapes[i], world[i]),
                        &Body::new(&shapes[j], world[j]),
                        Method::Auto,
                    );
                    let near = !matches!(d.status, Status::Exact | Status::Converged)
                        || (d.distance.to_f64() - margin.to_f64()).abs() <= tol;
                    if !near {
                        return Err(format!(
                            "{}: scene {scene_pts:?}, direct {brute:?} at distance {} (margin {})",
                            what(),
                            d.distance.to_f64(),
                            margin.to_f64()
                        ));
                    }
                    continue;
                }
                let ds = deepest(scene_pts.iter().map(|c| c.depth.to_f64()));
                let db = deepest(brute.iter().map(|p| p.depth.to_f64()));
                // A manifold's deepest point stands for its first contact
                // within the feature slop of the pair's smaller shape
                // (`reduce_with_first`); a warm-started query, whose first
                // contact differs by round-off, may find another point
                // within it.
                let half_diagonal = |s: &Shape<'_, R>| {
                    let b = s.world_aabb(&Iso3::IDENTITY);
                    (b.max - b.min).cast::<f64>().norm() * 0.5
                };
                let slop = FEATURE_SLOP_FRACTION
                    * half_diagonal(&shapes[i]).min(half_diagonal(&shapes[j]));
                if !brute.is_empty() && (ds - db).abs() > tol + slop {
                    return Err(format!(
                        "{}: deepest depth {ds} in the scene, {db} direct\n  scene {scene_pts:?}\n  direct {brute:?}",
                        what()
                    ));
                }
            }
        }
        if let Some((key, _)) = got.into_iter().next() {
            return Err(format!("step {step}: contacts of an unknown pair {key:?}"));
        }
    }
    Ok(if any {
        SceneOutcome::Contacts
    } else {
        SceneOutcome::NoContact
    })
}
