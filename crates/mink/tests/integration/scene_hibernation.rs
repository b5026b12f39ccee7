//! Hibernation end to end: boxes fall onto a plane under a tiny test
//! integrator (gravity, push-out along the contact normal, damping), come
//! to rest and fall asleep; the broad phase then sweeps no geometry; a box
//! dropped onto one sleeping box wakes exactly that box's island, and the
//! woken pair's contacts (and the woken box's own contact with the ground)
//! are in that very step.

use mink::islands::{Link, LinkState};
use mink::scene::{Contact, GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{Cuboid, HalfSpace, Iso3, Real, Vec3};
use mink::Shape;
use mink_testkit::for_each_real;

/// Seconds per step.
const DT: f64 = 0.01;
/// Gravity, m/s².
const GRAVITY: f64 = 9.81;
/// Velocity kept per step (simple damping).
const DAMPING: f64 = 0.9;

/// The bodies' translational state; no rotation (the boxes stay
/// axis-aligned).
struct Bodies<R> {
    pos: Vec<Vec3<R>>,
    vel: Vec<Vec3<R>>,
}

impl<R: Real> Bodies<R> {
    fn poses(&self) -> Vec<Iso3<R>> {
        self.pos
            .iter()
            .map(|&p| Iso3::from_translation(p))
            .collect()
    }

    /// Dof velocities: 6 per moving link (translation first), link 0 fixed.
    fn dof_vel(&self) -> Vec<R> {
        let mut out = Vec::new();
        for v in &self.vel[1..] {
            out.extend_from_slice(&[v.x, v.y, v.z, R::ZERO, R::ZERO, R::ZERO]);
        }
        out
    }

    /// Gravity and damping on the awake links, then positions.
    fn integrate(&mut self, awake: impl Fn(usize) -> bool) {
        for l in 1..self.pos.len() {
            if !awake(l) {
                continue;
            }
            self.vel[l].z -= R::lit(GRAVITY * DT);
            self.vel[l] *= R::lit(DAMPING);
            self.pos[l] = self.pos[l] + self.vel[l] * R::lit(DT);
        }
    }

    /// Pushes the bodies apart along each penetrating contact (all of it
    /// onto a moving body against the ground, half each between two
    /// bodies) and removes the approaching normal velocity.
    fn resolve(&mut self, contacts: &[Contact<R>]) {
        // One correction per pair, by its deepest point: a resting box's
        // manifold has four points, and pushing by each would overshoot.
        let mut deepest: Vec<Contact<R>> = Vec::new();
        for c in contacts {
            match deepest
                .iter_mut()
                .find(|d| (d.geom_a, d.geom_b) == (c.geom_a, c.geom_b))
            {
                Some(d) if d.depth < c.depth => *d = *c,
                Some(_) => {}
                None => deepest.push(*c),
            }
        }
        for c in &deepest {
            if c.depth <= R::ZERO {
                continue;
            }
            let (a, b, n) = (c.link_a as usize, c.link_b as usize, c.normal);
            let share = if a == 0 || b == 0 { R::ONE } else { R::HALF };
            if a != 0 {
                self.pos[a] -= n * (c.depth * share);
                let vn = self.vel[a].dot(n);
                if vn > R::ZERO {
                    self.vel[a] -= n * vn;
                }
            }
            if b != 0 {
                self.pos[b] += n * (c.depth * share);
                let vn = self.vel[b].dot(n);
                if vn < R::ZERO {
                    self.vel[b] -= n * vn;
                }
            }
        }
    }
}

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

fn pile_sleeps_and_a_dropped_box_wakes_its_island<R: Real>() {
    // Link 0: the ground. Links 1..=5: unit boxes. Link 4 starts on top of
    // link 2 (a stack of two: one island); link 5 is parked far away.
    let n = 6;
    let mut links = vec![Link::world()];
    for l in 1..n as u32 {
        links.push(Link::free(6 * (l - 1), 6));
    }
    let dof_length = vec![R::ONE; 6 * (n - 1)];
    let plane: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into();
    let cube: Shape<'_, R> = Cuboid::new(Vec3::splat(R::HALF)).unwrap().into();
    let mut geoms = vec![GeomDesc::new(plane, 0)];
    for l in 1..n as u32 {
        geoms.push(GeomDesc::new(cube, l).with_margin(R::lit(0.005)));
    }
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let mut bodies = Bodies {
        pos: vec![
            Vec3::ZERO,
            v(0.0, 0.0, 0.6),
            v(3.0, 0.0, 0.7),
            v(6.0, 0.0, 0.55),
            v(3.0, 0.0, 1.8),
            v(50.0, 0.0, 0.6),
        ],
        vel: vec![Vec3::ZERO; n],
    };

    // Fall, settle, sleep.
    let mut first_awake = None;
    let mut slept_at = None;
    for step in 0..400 {
        let awake: Vec<bool> = (0..n)
            .map(|l| scene.islands().link_state(l as u32) == Some(LinkState::Awake))
            .collect();
        // The velocities the islands judge are those after the last
        // step's contact response (zero for a body at rest).
        let vel = bodies.dof_vel();
        bodies.integrate(|l| awake[l]);
        let poses = bodies.poses();
        let report = scene.step(&SceneInput::new(&poses, &vel)).unwrap();
        first_awake.get_or_insert(report.awake_geoms);
        bodies.resolve(scene.contacts());
        for l in scene.islands().slept_links().collect::<Vec<_>>() {
            bodies.vel[l as usize] = Vec3::ZERO;
        }
        if (1..n as u32).all(|l| scene.islands().is_asleep(l)) {
            slept_at = Some(step);
            break;
        }
    }
    let slept_at = slept_at.expect("the pile never fell asleep");
    assert!(slept_at > 10, "asleep after {slept_at} steps");
    // Resting where they should: on the ground, and link 4 on link 2.
    let tol = 0.02;
    for l in [1, 2, 3, 5] {
        assert!(
            (bodies.pos[l].z.to_f64() - 0.5).abs() < tol,
            "link {l} at {:?}",
            bodies.pos[l]
        );
    }
    assert!((bodies.pos[4].z.to_f64() - 1.5).abs() < 2.0 * tol);
    // Links 2 and 4 sleep as one island, the others alone.
    assert_eq!(scene.islands().sleeping_island_count(), 4);
    assert_eq!(first_awake, Some(n - 1));

    // Asleep: the broad phase sweeps nothing and tests no pair.
    let (poses, vel) = (bodies.poses(), bodies.dof_vel());
    let report = scene.step(&SceneInput::new(&poses, &vel)).unwrap();
    assert_eq!(report.awake_geoms, 0);
    assert_eq!(report.asleep_geoms, n);
    assert_eq!(report.broadphase_pairs, 0);
    assert!(scene.contacts().is_empty());

    // Drop link 5 onto link 1: teleported just above it, falling at 1 m/s,
    // woken by request. Link 1 wakes through the new contact this step.
    bodies.pos[5] = v(0.1, 0.0, 1.5 + 0.004);
    bodies.vel[5] = v(0.0, 0.0, -1.0);
    bodies.integrate(|l| l == 5);
    let (poses, vel) = (bodies.poses(), bodies.dof_vel());
    let input = SceneInput {
        wake: &[5],
        ..SceneInput::new(&poses, &vel)
    };
    let report = scene.step(&input).unwrap();
    assert!(scene.contacts_between(5, 1).count() >= 1, "no 5–1 contact");
    // Link 1's ground contact was found after it woke, in the same step.
    assert!(
        scene.contacts_between(1, 0).count() >= 1,
        "no 1–ground contact"
    );
    assert_eq!(report.wake_passes, 1);
    let mut woken = scene.islands().woken_links().to_vec();
    woken.sort_unstable();
    assert_eq!(woken, [1, 5]);
    for l in [2, 3, 4] {
        assert!(scene.islands().is_asleep(l), "link {l} woke");
        assert_eq!(scene.contacts_of(l).count(), 0);
    }
    assert_eq!(scene.islands().island_of(1), scene.islands().island_of(5));
    assert!(scene.islands().island_of(1).is_some());
    // The report counts the first frame's sweep: link 5 only.
    assert_eq!(report.awake_geoms, 1);
    assert_eq!(report.sleeping_islands, 2);
}
for_each_real!(
    pile_sleeps_and_a_dropped_box_wakes_its_island,
    pile_sleeps_and_a_dropped_box_wakes_its_island
);
