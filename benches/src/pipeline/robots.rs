//! Capsule robots walking on a terrain: the scene and its scripted gait.
//!
//! Each robot is an articulated chain of 9 capsules, one per link: a body
//! capsule along the heading (the articulation's root) and four legs of two
//! segments, the upper segment a child of the body, the lower a child of
//! the upper. Adjacent links overlap at their joints and must not collide
//! (the parent–child filter drops them); non-adjacent links of a robot and
//! links of different robots may.
//!
//! The motion is scripted, not simulated: [`Walkers::poses`] gives every
//! capsule's pose as a function of time. The robots walk in lanes along
//! ±x, neighbouring lanes in opposite directions, swaying sideways so that
//! legs of robots in neighbouring lanes brush now and then (and a robot's
//! front and rear knees of one side, bent towards each other, sometimes
//! meet: non-adjacent links of one robot touching). The body rides
//! a fixed height over the terrain, pitched with its slope; each foot
//! alternates stance (planted at a fixed world point, its ball sunk 4 mm to
//! 2 cm into the terrain's surface, deepest mid-stance) and swing (lifted
//! up to 7 cm, carried to the next foothold); each leg's knee comes from
//! two-link inverse kinematics between hip and foot. Nothing pushes back:
//! capsules of two robots may pass through each other.

use super::scenes::{BodyDesc, BodyShape, Ground, Motion, Pose, SceneDesc};
use super::terrain::Terrain;
use mink_support::{Mat3, Quat, Vec3};
use mink_testkit::Rng;
use std::f64::consts::{PI, TAU};

/// Capsules per robot: the body and two per leg.
pub const CAPSULES_PER_ROBOT: usize = 9;

/// Body capsule: radius and half segment length, meters.
const BODY_RADIUS: f64 = 0.11;
const BODY_HALF: f64 = 0.24;
/// Height of the body's centre above the terrain under it, meters.
const BODY_HEIGHT: f64 = 0.48;
/// Hips in the body frame (x forward, y left, z up), meters: front/rear
/// offset, left/right offset, height.
const HIP: [f64; 3] = [0.26, 0.16, -0.02];
/// Feet land this much further out than the hips, meters.
const FOOT_SPLAY: f64 = 0.03;
/// Leg segments: length between joints (meters) and radii of the upper
/// and lower segment (the lower's end ball is the foot).
const SEGMENT: f64 = 0.28;
const UPPER_RADIUS: f64 = 0.045;
const FOOT_RADIUS: f64 = 0.035;
/// How deep a planted foot's ball sinks into the surface, meters: at touch
/// down and lift off, and mid-stance.
const DEPTH_EDGE: f64 = 0.004;
const DEPTH_MID: f64 = 0.02;
/// Highest lift of a swinging foot, meters.
const LIFT: f64 = 0.07;
/// Gait cycle (seconds) and the fraction of it a foot is planted.
const PERIOD: f64 = 0.9;
const DUTY: f64 = 0.7;
/// Phase of each leg in the cycle (left front, right front, left rear,
/// right rear): a walk, one foot lifting at a time.
const LEG_PHASE: [f64; 4] = [0.0, 0.5, 0.75, 0.25];
/// Walking speed, meters per second.
const SPEED: f64 = 0.45;
/// Lanes (meters apart, across y) and robots along a lane (meters apart).
const LANE: f64 = 0.62;
const SPACING: f64 = 1.6;
/// Sideways sway: amplitude (meters) and period (seconds).
const SWAY: f64 = 0.09;
const SWAY_PERIOD: f64 = 3.0;

/// One robot's script.
#[derive(Clone, Debug, PartialEq)]
pub struct Walker {
    /// Body xy at time 0, world, meters.
    start: [f64; 2],
    /// +1 walking along +x, -1 along -x.
    dir: f64,
    /// Offset of its gait cycle, in cycles.
    phase: f64,
    /// Offset of its sway, radians.
    sway_phase: f64,
}

/// The scripted motion of a robots scene: one [`Walker`] per robot, the
/// robots' capsules [`CAPSULES_PER_ROBOT`] consecutive bodies each.
#[derive(Clone, Debug, PartialEq)]
pub struct Walkers {
    robots: Vec<Walker>,
}

/// A body's horizontal placement: xy and heading (radians about z).
#[derive(Clone, Copy)]
struct Planar {
    x: f64,
    y: f64,
    yaw: f64,
}

impl Planar {
    /// The world xy of the body-frame point `(fx, fy)`.
    fn apply(&self, fx: f64, fy: f64) -> (f64, f64) {
        let (s, c) = self.yaw.sin_cos();
        (self.x + c * fx - s * fy, self.y + s * fx + c * fy)
    }
}

impl Walker {
    /// Where the body is in the plane at time `t` (seconds).
    fn planar(&self, t: f64) -> Planar {
        let w = TAU / SWAY_PERIOD;
        let x = self.start[0] + self.dir * SPEED * t;
        let y = self.start[1] + SWAY * (w * t + self.sway_phase).sin();
        let vy = SWAY * w * (w * t + self.sway_phase).cos();
        Planar {
            x,
            y,
            yaw: vy.atan2(self.dir * SPEED),
        }
    }

    /// The world centre of leg `leg`'s foot ball at time `t`.
    fn foot(&self, leg: usize, t: f64, ground: &Ground) -> Vec3<f64> {
        let (front, left) = (leg < 2, leg.is_multiple_of(2));
        let fx = if front { HIP[0] } else { -HIP[0] };
        let fy = if left { 1.0 } else { -1.0 } * (HIP[1] + FOOT_SPLAY);
        let cycle = t / PERIOD + self.phase + LEG_PHASE[leg];
        let (k, s) = (cycle.floor(), cycle - cycle.floor());
        // The foothold of stance `k`: the nominal foot under the body as it
        // is in the middle of that stance.
        let hold = |k: f64| {
            let mid = (k + 0.5 * DUTY - self.phase - LEG_PHASE[leg]) * PERIOD;
            self.planar(mid).apply(fx, fy)
        };
        if s < DUTY {
            let (x, y) = hold(k);
            let depth = DEPTH_EDGE + (DEPTH_MID - DEPTH_EDGE) * (PI * s / DUTY).sin();
            Vec3::new(x, y, ground.height_at(x, y) + FOOT_RADIUS - depth)
        } else {
            let u = (s - DUTY) / (1.0 - DUTY);
            let ((x0, y0), (x1, y1)) = (hold(k), hold(k + 1.0));
            let e = 0.5 - 0.5 * (PI * u).cos();
            let (x, y) = (x0 + e * (x1 - x0), y0 + e * (y1 - y0));
            let lift = LIFT * (PI * u).sin();
            Vec3::new(
                x,
                y,
                ground.height_at(x, y) + FOOT_RADIUS - DEPTH_EDGE + lift,
            )
        }
    }

    /// The poses of this robot's capsules at time `t`, appended to `out`:
    /// body, then each leg's upper and lower segment.
    fn poses(&self, t: f64, ground: &Ground, out: &mut Vec<Pose>) {
        let p = self.planar(t);
        let (xf, yf) = p.apply(HIP[0], 0.0);
        let (xr, yr) = p.apply(-HIP[0], 0.0);
        let (hf, hr) = (ground.height_at(xf, yf), ground.height_at(xr, yr));
        let pitch = (hf - hr).atan2(2.0 * HIP[0]);
        let (sy, cy) = p.yaw.sin_cos();
        let (sp, cp) = pitch.sin_cos();
        // Body axes: forward along the heading, tilted up by `pitch`.
        let fwd = Vec3::new(cy * cp, sy * cp, sp);
        let left = Vec3::new(-sy, cy, 0.0);
        let up = fwd.cross(left);
        let centre = Vec3::new(p.x, p.y, 0.5 * (hf + hr) + BODY_HEIGHT);
        out.push(capsule_pose(centre, fwd, left));
        for leg in 0..4_usize {
            let (front, is_left) = (leg < 2, leg.is_multiple_of(2));
            let hx = if front { HIP[0] } else { -HIP[0] };
            let hy = if is_left { HIP[1] } else { -HIP[1] };
            let hip = centre + fwd * hx + left * hy + up * HIP[2];
            let foot = self.foot(leg, t, ground);
            debug_assert!(
                (foot - hip).norm() < 2.0 * SEGMENT * 0.999,
                "a foot out of its leg's reach"
            );
            // Front knees bend backwards, rear knees forwards.
            let bend = if front { -1.0 } else { 1.0 };
            let knee = knee(hip, foot, fwd * bend);
            out.push(capsule_pose((hip + knee) * 0.5, knee - hip, left));
            out.push(capsule_pose((knee + foot) * 0.5, foot - knee, left));
        }
    }
}

/// The knee of a two-segment leg ([`SEGMENT`] each) from `hip` to `foot`,
/// bent towards `towards` (a direction not along the leg); a foot out of
/// reach gets the leg nearly straight towards it.
fn knee(hip: Vec3<f64>, foot: Vec3<f64>, towards: Vec3<f64>) -> Vec3<f64> {
    let d = foot - hip;
    let len = d.norm().clamp(1e-3, 2.0 * SEGMENT * 0.999);
    let u = d.normalize_or(Vec3::new(0.0, 0.0, -1.0));
    let side = (towards - u * towards.dot(u)).normalize_or(u.any_orthonormal());
    let a = 0.5 * len;
    let b = (SEGMENT * SEGMENT - a * a).max(0.0).sqrt();
    hip + u * a + side * b
}

/// The pose of a capsule (core along local z) whose core runs along `axis`
/// through `centre`, its local x as close to `across × axis` as it can be.
fn capsule_pose(centre: Vec3<f64>, axis: Vec3<f64>, across: Vec3<f64>) -> Pose {
    let z = axis.normalize_or(Vec3::new(0.0, 0.0, 1.0));
    let x = across.cross(z).normalize_or(z.any_orthonormal());
    let y = z.cross(x);
    let q = Quat::from_mat3(&Mat3::from_cols(x, y, z));
    Pose::new(centre.cast(), q.cast())
}

impl Walkers {
    /// Every capsule's pose at time `t` (seconds), scene order, on
    /// `ground` (a plane is flat at `z = 0`).
    pub fn poses(&self, t: f64, ground: &Ground) -> Vec<Pose> {
        let mut out = Vec::with_capacity(self.robots.len() * CAPSULES_PER_ROBOT);
        for r in &self.robots {
            r.poses(t, ground, &mut out);
        }
        out
    }
}

/// `n` capsule robots walking on a bumpy terrain of 64 × 64 cells over
/// 40 m ([`Terrain::bumps`]), in lanes 0.62 m apart, 1.6 m apart
/// along a lane (jittered by up to ±0.2 m), the lanes filled over a square
/// around the origin; gait phases and sways from `seed`.
pub fn capsule_robots(n: usize, seed: u64) -> SceneDesc {
    let mut rng = Rng::new(seed);
    let ground = Ground::HeightField(Terrain::bumps(64, 40.0, seed ^ 0x7e44a1));
    let lanes = ((n as f64 * SPACING / LANE).sqrt().ceil() as usize).max(1);
    let per_lane = n.div_ceil(lanes).max(1);
    let mut robots = Vec::with_capacity(n);
    'fill: for lane in 0..lanes {
        for k in 0..per_lane {
            if robots.len() == n {
                break 'fill;
            }
            let x = (k as f64 - 0.5 * (per_lane as f64 - 1.0)) * SPACING + rng.range_f64(-0.2, 0.2);
            let y = (lane as f64 - 0.5 * (lanes as f64 - 1.0)) * LANE;
            robots.push(Walker {
                start: [x, y],
                dir: if lane.is_multiple_of(2) { 1.0 } else { -1.0 },
                phase: rng.unit_f64(),
                sway_phase: rng.range_f64(0.0, TAU),
            });
        }
    }
    let walkers = Walkers { robots };
    let start = walkers.poses(0.0, &ground);
    let mut bodies = Vec::with_capacity(start.len());
    for (r, chunk) in start.chunks(CAPSULES_PER_ROBOT).enumerate() {
        let base = (r * CAPSULES_PER_ROBOT) as u32;
        for (k, pose) in chunk.iter().enumerate() {
            let (shape, parent) = match k {
                0 => (capsule(BODY_RADIUS, BODY_HALF), None),
                // Upper segments (odd) hang from the body, lower ones from
                // the upper segment just before them.
                k if !k.is_multiple_of(2) => (capsule(UPPER_RADIUS, 0.5 * SEGMENT), Some(base)),
                _ => (
                    capsule(FOOT_RADIUS, 0.5 * SEGMENT),
                    Some(base + k as u32 - 1),
                ),
            };
            bodies.push(BodyDesc {
                shape,
                pose: *pose,
                link: base + k as u32,
                parent_link: parent,
            });
        }
    }
    SceneDesc {
        name: format!("robots_{n}"),
        bodies,
        ground,
        motion: Motion::Walk(walkers),
    }
}

fn capsule(radius: f64, half_length: f64) -> BodyShape {
    BodyShape::Capsule {
        radius: radius as f32,
        half_length: half_length as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The script keeps its promises: adjacent links meet at their joints
    /// (so the filter has work), planted feet sink 4 mm to 2 cm, and
    /// bodies stay clear of the terrain.
    #[test]
    fn gait_geometry() {
        let scene = capsule_robots(50, 3);
        let Motion::Walk(w) = &scene.motion else {
            panic!("a scripted scene");
        };
        let mut planted = 0;
        for f in 0..30 {
            let t = f64::from(f) / 15.0;
            let poses = w.poses(t, &scene.ground);
            assert_eq!(poses.len(), scene.bodies.len());
            for (i, b) in scene.bodies.iter().enumerate() {
                let p = &poses[i];
                let q = Quat::from_wxyz(p.q[0], p.q[1], p.q[2], p.q[3]).cast::<f64>();
                let axis = q.to_mat3().col(2);
                let c = Vec3::new(p.t[0], p.t[1], p.t[2]).cast::<f64>();
                let BodyShape::Capsule {
                    radius,
                    half_length,
                } = b.shape
                else {
                    panic!("capsules only");
                };
                let (r, h) = (f64::from(radius), f64::from(half_length));
                // Local z runs from the joint nearer the body to the far one.
                let (start, end) = (c - axis * h, c + axis * h);
                let k = i % CAPSULES_PER_ROBOT;
                if k != 0 && k.is_multiple_of(2) {
                    // A lower segment starts at its upper segment's end.
                    let parent = b.parent_link.expect("a parent") as usize;
                    let pp = &poses[parent];
                    let pq = Quat::from_wxyz(pp.q[0], pp.q[1], pp.q[2], pp.q[3]).cast::<f64>();
                    let pc = Vec3::new(pp.t[0], pp.t[1], pp.t[2]).cast::<f64>();
                    let upper_end = pc + pq.to_mat3().col(2) * (0.5 * SEGMENT);
                    assert!(start.distance(upper_end) < 1e-4, "knee of body {i}");
                    // The foot is the end ball.
                    let under = scene.ground.height_at(end.x, end.y);
                    let depth = under - (end.z - r);
                    assert!(depth < DEPTH_MID + 1e-4, "foot {i} {depth}");
                    if depth > DEPTH_EDGE * 0.5 {
                        planted += 1;
                    }
                }
                if i % CAPSULES_PER_ROBOT == 0 {
                    let low = start.z.min(end.z) - r;
                    assert!(low > scene.ground.height_at(c.x, c.y) + 0.15, "body {i}");
                }
            }
        }
        // About DUTY of the feet are planted at any time.
        let feet = 30 * 50 * 4;
        assert!(
            planted * 10 > feet * 5 && planted * 10 < feet * 9,
            "{planted}"
        );
    }

    /// Both libraries on the recorded walk: the same touching pairs (within
    /// 0.5%: the two libraries' speculative margins are not the same test),
    /// none between adjacent links, and every kind the scene promises: feet
    /// on the terrain, legs of one robot (front and rear knees of a side
    /// meet), legs of two robots.
    #[test]
    fn touching_pairs_agree() {
        use crate::pipeline::mink_scene::{MinkScene, MinkSceneData};
        use crate::pipeline::mink_shapes::MinkShapes;
        use crate::pipeline::rapier_replay::{prediction_distance, RapierReplay};
        use crate::pipeline::record::record;

        let scene = capsule_robots(50, 13);
        let rec = record(&scene, 120, 4);
        let shapes = MinkShapes::new(&scene);
        let data = MinkSceneData::new(&shapes, prediction_distance());
        let mut mink = MinkScene::new(&data);
        let mut rapier = RapierReplay::new(&scene);
        let n = scene.bodies.len();
        let adjacent = |a: usize, b: usize| {
            scene.bodies[b].parent_link == Some(a as u32)
                || scene.bodies[a].parent_link == Some(b as u32)
        };
        let (mut ground, mut same, mut other) = (0, 0, 0);
        let (mut only_mink, mut only_rapier, mut total) = (0, 0, 0);
        for poses in &rec.frames {
            mink.set_poses(poses);
            mink.step();
            rapier.set_poses(poses);
            rapier.step();
            let (ms, rs) = (mink.touching_pairs(), rapier.touching_pairs());
            total += rs.len();
            for &(a, b) in &ms {
                if b == n {
                    ground += 1;
                } else if a / CAPSULES_PER_ROBOT == b / CAPSULES_PER_ROBOT {
                    same += 1;
                } else {
                    other += 1;
                }
            }
            for &(a, b) in ms.iter().chain(&rs) {
                assert!(
                    b == n || !adjacent(a, b),
                    "adjacent links {a} and {b} touch"
                );
            }
            only_mink += ms.iter().filter(|x| rs.binary_search(x).is_err()).count();
            only_rapier += rs.iter().filter(|x| ms.binary_search(x).is_err()).count();
        }
        println!(
            "touching pairs over {} frames: terrain {ground}, same robot {same}, \
             two robots {other}; rapier {total}; mink only {only_mink}, rapier only {only_rapier}",
            rec.len()
        );
        assert!(ground > 0 && same > 0 && other > 0);
        assert!((only_mink + only_rapier) * 200 <= total, "pair sets differ");
    }
}
