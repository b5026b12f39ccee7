//! Hibernation scenarios, stepped by a tiny test integrator (boxes falling
//! in vertical columns onto the ground, perfectly inelastic landings, a
//! decaying spin on every body): no solver, just enough motion to settle.
//!
//! Expectations come from the seed's rule applied to the integrator's own
//! velocities, recomputed here: a link is ready after 10 consecutive steps
//! with every dof speed times its `dof_length` under the threshold, and an
//! island sleeps on the step its last link becomes ready.

use mink_islands::{
    Islands, IslandsBuf, Link, LinkState, Params, StepInput, Topology, SLEEP_STEPS,
};
use mink_support::Real;
use mink_testkit::for_each_real;

const DT: f64 = 0.01;
const G: f64 = 9.81;
/// Two surfaces closer than this are in contact (m).
const MARGIN: f64 = 1e-3;
/// Each step the spin of a body is multiplied by this.
const SPIN_DECAY: f64 = 0.7;

/// Body `i` is link `i + 1`; link 0 is the ground (top at z = 0).
struct Scene {
    /// Column (x position) of each body; bodies touch only in a column.
    column: Vec<u32>,
    half: Vec<f64>,
    z: Vec<f64>,
    vz: Vec<f64>,
    spin: Vec<f64>,
    links: Vec<Link>,
    dof_length: Vec<f64>,
}

impl Scene {
    /// Bodies `(column, half height, bottom z, spin rad/s, swept radius)`.
    fn new(bodies: &[(u32, f64, f64, f64, f64)]) -> Self {
        let mut links = vec![Link::world()];
        let mut dof_length = Vec::new();
        for (i, &(_, _, _, _, radius)) in bodies.iter().enumerate() {
            links.push(Link::free(6 * i as u32, 6));
            dof_length.extend_from_slice(&[1.0, 1.0, 1.0, radius, radius, radius]);
        }
        Self {
            column: bodies.iter().map(|b| b.0).collect(),
            half: bodies.iter().map(|b| b.1).collect(),
            z: bodies.iter().map(|b| b.2 + b.1).collect(),
            vz: vec![0.0; bodies.len()],
            spin: bodies.iter().map(|b| b.3).collect(),
            links,
            dof_length,
        }
    }

    fn topo<R: Real>(&self, len: &'_ mut Vec<R>) -> Vec<Link> {
        *len = self.dof_length.iter().map(|&x| R::lit(x)).collect();
        self.links.clone()
    }

    /// The dof velocities: (0, 0, vz) and a spin about every axis.
    fn dof_vel<R: Real>(&self) -> Vec<R> {
        (0..self.z.len())
            .flat_map(|i| {
                [
                    0.0,
                    0.0,
                    self.vz[i],
                    self.spin[i],
                    self.spin[i],
                    self.spin[i],
                ]
            })
            .map(R::lit)
            .collect()
    }

    /// The body (or the ground, `None`) directly under body `i`, and the
    /// height of its top.
    fn support(&self, i: usize) -> (Option<usize>, f64) {
        let mut best = (None, 0.0);
        for j in 0..self.z.len() {
            let top = self.z[j] + self.half[j];
            if j != i
                && self.column[j] == self.column[i]
                && top <= self.z[i] - self.half[i] + MARGIN
                && top > best.1
            {
                best = (Some(j), top);
            }
        }
        best
    }

    /// The contact pairs, as link ids; pairs whose sides both sleep (or
    /// sleep on the ground) are skipped, as a broad phase does.
    fn contacts<R: Real>(&self, islands: &IslandsBuf<R>) -> Vec<[u32; 2]> {
        let mut out = Vec::new();
        for i in 0..self.z.len() {
            let (below, top) = self.support(i);
            if self.z[i] - self.half[i] - top < MARGIN {
                let pair = [i as u32 + 1, below.map_or(0, |j| j as u32 + 1)];
                if islands.pair_is_active(pair[0], pair[1]) {
                    out.push(pair);
                }
            }
        }
        out
    }

    /// One step of the awake bodies, lowest first: gravity, inelastic
    /// landing on the support, spin decay. Sleeping bodies do not move.
    fn integrate<R: Real>(&mut self, islands: &IslandsBuf<R>) {
        let mut order: Vec<usize> = (0..self.z.len()).collect();
        order.sort_by(|&a, &b| self.z[a].total_cmp(&self.z[b]));
        for i in order {
            if islands.link_state(i as u32 + 1) != Some(LinkState::Awake) {
                continue;
            }
            let (below, top) = self.support(i);
            self.vz[i] -= G * DT;
            self.z[i] += self.vz[i] * DT;
            if self.z[i] - self.half[i] < top {
                self.z[i] = top + self.half[i];
                self.vz[i] = below.map_or(0.0, |j| self.vz[j]).max(self.vz[i]);
            }
            self.spin[i] *= SPIN_DECAY;
        }
    }

    /// Weighted speed of body `i` as the seed defines it.
    fn speed(&self, i: usize) -> f64 {
        let r = self.dof_length[6 * i + 3];
        self.vz[i].abs().max(self.spin[i].abs() * r)
    }

    /// Reads the islands' zeroed velocities back into the scene.
    fn apply<R: Real>(&mut self, vel: &[R]) {
        for i in 0..self.z.len() {
            self.vz[i] = vel[6 * i + 2].to_f64();
            self.spin[i] = vel[6 * i + 3].to_f64();
        }
    }
}

/// Steps the scene once: contacts, islands, zeroing, integration. Returns
/// the summary's slept island count.
fn step<R: Real>(
    scene: &mut Scene,
    topo: &Topology<'_, R>,
    s: &mut IslandsBuf<R>,
    wake: &[u32],
) -> u32 {
    let contacts = scene.contacts(s);
    let mut vel = scene.dof_vel::<R>();
    let input = StepInput {
        contacts: &contacts,
        constraints: &[],
        wake,
        dof_vel: &vel,
    };
    let sum = s.step(topo, &input).unwrap();
    s.zero_slept_dofs(topo, &mut vel);
    scene.apply(&vel);
    scene.integrate(s);
    sum.slept_islands
}

/// A stack of 5 boxes dropped from small gaps, spinning: it settles and
/// sleeps on exactly the step the 10-step rule says, as one island.
fn stack_sleeps_on_schedule<R: Real>() {
    let bodies: Vec<_> = (0..5)
        .map(|k| {
            (
                0,
                0.1,
                0.2 * k as f64 + 0.01 * (k + 1) as f64,
                2.0 + k as f64,
                0.15,
            )
        })
        .collect();
    let mut scene = Scene::new(&bodies);
    let mut len = Vec::new();
    let links = scene.topo::<R>(&mut len);
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<R> = Islands::owned(&topo, Params::new()).unwrap();
    let thresh = Params::<R>::new().thresh_vel.to_f64();
    let mut under = [0u32; 5];
    let mut expected = None;
    for t in 0..400u32 {
        // The rule, applied to the speeds the step is about to read.
        for i in 0..5 {
            under[i] = if scene.speed(i) < thresh {
                under[i] + 1
            } else {
                0
            };
        }
        let ready = under.iter().all(|&u| u >= SLEEP_STEPS);
        let touching = scene.contacts(&s).len() == 5;
        if expected.is_none() && ready && touching {
            expected = Some(t);
        }
        let slept = step(&mut scene, &topo, &mut s, &[]);
        if slept > 0 {
            assert_eq!(Some(t), expected, "slept at step {t}");
            assert_eq!(slept, 1);
            let isl = s.island(s.slept_islands()[0]).unwrap();
            assert_eq!(isl.links, &[1, 2, 3, 4, 5]);
            assert_eq!(isl.contacts.len(), 5);
            assert!((1..=5).all(|l| s.is_asleep(l)));
            assert!(scene.vz.iter().chain(&scene.spin).all(|&v| v == 0.0));
            // It took time to settle: spin 2-6 rad/s decaying by 0.7.
            assert!(t > 20, "{t}");
            return;
        }
        assert!((1..=5).all(|l| !s.is_asleep(l)));
    }
    panic!("the stack never slept");
}
for_each_real!(
    a_stack_sleeps_after_exactly_ten_still_steps,
    stack_sleeps_on_schedule
);

/// Settles a stack of `n` boxes in column `col` (links `first..first+n`)
/// and returns the step count it took.
fn settle<R: Real>(
    scene: &mut Scene,
    topo: &Topology<'_, R>,
    s: &mut IslandsBuf<R>,
    links: &[u32],
) -> u32 {
    for t in 0..400 {
        step(scene, topo, s, &[]);
        if links.iter().all(|&l| s.is_asleep(l)) {
            return t;
        }
    }
    panic!("did not settle");
}

/// A ball dropped on a sleeping stack wakes the whole stack on the step its
/// contact appears, and (re-running detection after the wake pass) the
/// ball and the stack are one island that same step.
fn drop_wakes_stack<R: Real>() {
    let mut bodies: Vec<_> = (0..4).map(|k| (0, 0.1, 0.2 * k as f64, 0.5, 0.1)).collect();
    bodies.push((0, 0.05, 3.0, 0.0, 0.05)); // the ball, 3 m up
    let mut scene = Scene::new(&bodies);
    // Hold the ball until the stack sleeps.
    scene.column[4] = 1;
    let mut len = Vec::new();
    let links = scene.topo::<R>(&mut len);
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<R> = Islands::owned(&topo, Params::new()).unwrap();
    // The ball waits in another column, held 3 m up and kept moving (so
    // awake) by putting it back every step.
    for _ in 0..400 {
        step(&mut scene, &topo, &mut s, &[]);
        scene.z[4] = 3.05;
        scene.vz[4] = -1.0;
        if (1..=4).all(|l| s.is_asleep(l)) {
            break;
        }
    }
    assert!((1..=4).all(|l| s.is_asleep(l)));
    assert_eq!(s.link_state(5), Some(LinkState::Awake));
    scene.column[4] = 0;
    let mut woke_at = None;
    for t in 0..400u32 {
        let contacts = scene.contacts(&s);
        let touching = contacts.contains(&[5, 4]);
        // Pass 1: the wake pass on what the broad phase found.
        s.wake(&topo, &contacts, &[], &[]).unwrap();
        if !touching {
            assert!(s.woken_links().is_empty());
            assert!((1..=4).all(|l| s.is_asleep(l)), "woke early at {t}");
        } else {
            assert_eq!(s.woken_links().len(), 4);
            woke_at = Some(t);
        }
        // Pass 2: detection again, now that the woken boxes pair up.
        let contacts = scene.contacts(&s);
        let vel = scene.dof_vel::<R>();
        let input = StepInput {
            contacts: &contacts,
            constraints: &[],
            wake: &[],
            dof_vel: &vel,
        };
        s.step(&topo, &input).unwrap();
        scene.integrate(&s);
        if touching {
            assert_eq!(s.woken_links(), &[1, 2, 3, 4]);
            let isl = s.island(s.island_of(5).unwrap()).unwrap();
            assert_eq!(isl.links, &[1, 2, 3, 4, 5]);
            assert!(!isl.asleep);
            break;
        }
    }
    let t = woke_at.expect("the ball never landed");
    assert!(t > 50, "{t}"); // 3 m at 1 m/s and more
}
for_each_real!(
    a_body_dropped_on_a_sleeping_stack_wakes_it_the_same_step,
    drop_wakes_stack
);

/// The ground does not wake a sleeping stack; an external coupling force on
/// one box wakes all of it in one step (each box its own island in that
/// step, since no contacts were handed in), and it sleeps again exactly 10
/// still steps later.
fn one_pass_wakes_stack<R: Real>() {
    let bodies: Vec<_> = (0..4).map(|k| (0, 0.1, 0.2 * k as f64, 0.5, 0.1)).collect();
    let mut scene = Scene::new(&bodies);
    let mut len = Vec::new();
    let links = scene.topo::<R>(&mut len);
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<R> = Islands::owned(&topo, Params::new()).unwrap();
    settle(&mut scene, &topo, &mut s, &[1, 2, 3, 4]);
    // Contacts with the ground (static) wake nothing.
    let vel = scene.dof_vel::<R>();
    let input = StepInput {
        contacts: &[[4, 0], [0, 3]],
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    s.step(&topo, &input).unwrap();
    assert!((1..=4).all(|l| s.is_asleep(l)), "the ground woke the stack");
    // An external coupling force on the middle box wakes the whole island.
    let input = StepInput {
        contacts: &[],
        constraints: &[],
        wake: &[2],
        dof_vel: &vel,
    };
    let sum = s.step(&topo, &input).unwrap();
    assert_eq!(sum.woken_links, 4);
    assert_eq!(s.woken_links(), &[1, 2, 3, 4]);
    // With no contacts handed in, each box is its own island this step.
    assert_eq!(sum.islands, 4);
    // And it sleeps again exactly 10 still steps later, the wake step not
    // counting.
    for k in 1..=SLEEP_STEPS {
        let contacts = scene.contacts(&s);
        let input = StepInput {
            contacts: &contacts,
            constraints: &[],
            wake: &[],
            dof_vel: &vel,
        };
        let sum = s.step(&topo, &input).unwrap();
        assert_eq!(sum.slept_islands > 0, k == SLEEP_STEPS, "step {k}");
    }
    assert!((1..=4).all(|l| s.is_asleep(l)));
}
for_each_real!(
    an_external_force_wakes_and_the_ground_does_not,
    one_pass_wakes_stack
);

/// Two sleeping stacks touching each other stay asleep; waking one wakes
/// the other through that contact.
fn sleeping_touch<R: Real>() {
    let bodies: Vec<_> = (0..6)
        .map(|k| (k / 3, 0.1, 0.2 * (k % 3) as f64, 0.3, 0.1))
        .collect();
    let mut scene = Scene::new(&bodies);
    let mut len = Vec::new();
    let links = scene.topo::<R>(&mut len);
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<R> = Islands::owned(&topo, Params::new()).unwrap();
    settle(&mut scene, &topo, &mut s, &[1, 2, 3, 4, 5, 6]);
    assert_eq!(s.sleeping_island_count(), 2);
    let vel = scene.dof_vel::<R>();
    // A contact between the two sleeping stacks (a broad phase without the
    // sleep filter reports it): both stay asleep, the contact is in no
    // island.
    let side = [[3, 6]];
    for _ in 0..20 {
        let input = StepInput {
            contacts: &side,
            constraints: &[],
            wake: &[],
            dof_vel: &vel,
        };
        let sum = s.step(&topo, &input).unwrap();
        assert_eq!((sum.islands, sum.woken_links), (0, 0));
        assert_eq!(s.contact_island(0), None);
    }
    assert!((1..=6).all(|l| s.is_asleep(l)));
    // An external force on the first stack wakes the second through it.
    let input = StepInput {
        contacts: &side,
        constraints: &[],
        wake: &[1],
        dof_vel: &vel,
    };
    let sum = s.step(&topo, &input).unwrap();
    assert_eq!(sum.woken_links, 6);
    assert_eq!(sum.sleeping_islands, 0);
    assert_eq!(s.island(s.island_of(3).unwrap()).unwrap().links, &[3, 6]);
}
for_each_real!(
    a_sleeping_island_touched_only_by_a_sleeping_one_stays_asleep,
    sleeping_touch
);

/// Two free bodies with the same spin (0.1 rad/s, steady): the small one
/// (radius 1 cm, weighted 1 mm/s) sleeps after 10 steps, the large one
/// (radius 1 m, weighted 0.1 m/s) never does, nor does the small one when
/// its rotational dofs are weighted 1, or under the MuJoCo threshold.
fn weighting<R: Real>() {
    let run = |radius: f64, params: Params<R>| -> Option<u32> {
        let links = [Link::world(), Link::free(0, 6)];
        let len: Vec<R> = [1.0, 1.0, 1.0, radius, radius, radius].map(R::lit).to_vec();
        let topo = Topology::new(&links, &len).unwrap();
        let mut s: IslandsBuf<R> = Islands::owned(&topo, params).unwrap();
        let vel: Vec<R> = [0.0, 0.0, 0.0, 0.1, -0.1, 0.1].map(R::lit).to_vec();
        let contacts = [[1, 0]];
        for t in 1..=100 {
            let input = StepInput {
                contacts: &contacts,
                constraints: &[],
                wake: &[],
                dof_vel: &vel,
            };
            if s.step(&topo, &input).unwrap().slept_islands > 0 {
                return Some(t);
            }
        }
        None
    };
    assert_eq!(run(0.01, Params::new()), Some(SLEEP_STEPS));
    assert_eq!(run(1.0, Params::new()), None);
    assert_eq!(run(0.5, Params::new()), None);
    assert_eq!(run(0.01, Params::mujoco()), None);
    assert_eq!(run(0.0005, Params::mujoco()), Some(SLEEP_STEPS));
    assert_eq!(run(0.01, Params::no_hibernation()), None);
}
for_each_real!(
    dof_length_weighting_lets_a_small_spinning_body_sleep,
    weighting
);

/// Islands split when a contact goes: of two touching boxes, the still one
/// sleeps alone once the moving one slides off.
#[test]
fn a_split_lets_the_still_part_sleep() {
    let links = [Link::world(), Link::free(0, 1), Link::free(1, 1)];
    let len = [1.0_f64, 1.0];
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<f64> = Islands::owned(&topo, Params::new()).unwrap();
    let vel = [0.0, 0.5];
    let together = [[1, 2], [1, 0]];
    for _ in 0..30 {
        let input = StepInput {
            contacts: &together,
            constraints: &[],
            wake: &[],
            dof_vel: &vel,
        };
        let sum = s.step(&topo, &input).unwrap();
        assert_eq!((sum.islands, sum.slept_islands), (1, 0));
    }
    // Link 1 has been still all along: apart, it sleeps at once.
    let apart = [[1, 0]];
    let input = StepInput {
        contacts: &apart,
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    let sum = s.step(&topo, &input).unwrap();
    assert_eq!((sum.islands, sum.slept_islands), (2, 1));
    assert!(s.is_asleep(1) && !s.is_asleep(2));
    assert_eq!(s.awake_links(), &[2]);
    assert_eq!(s.awake_islands().collect::<Vec<_>>(), [1]);
    // The moving box comes back: a merge with an awake island wakes it.
    let input = StepInput {
        contacts: &together,
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    let sum = s.step(&topo, &input).unwrap();
    assert_eq!((sum.islands, sum.woken_links), (1, 1));
    assert_eq!(s.link_state(1), Some(LinkState::Awake));
}
