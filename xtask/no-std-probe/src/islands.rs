//! mink-islands's core API, called without std or alloc, in `f32` and
//! `f64`: a `Topology` of five links (the ground, two free boxes, a
//! two-link pendulum), an `Islands` state in a fixed `u32` array sized by
//! the `const` `Capacity::words`, islands built from a few contact pairs
//! and one equality constraint (`step`), read back island by island; then
//! hibernation: still steps until the islands fall asleep
//! (`zero_slept_dofs`), a push and a contact waking them ahead of the step
//! (`wake`), a wake request in the step, and other `Params`.
//! (`IslandsBuf`, the growing owned buffer, needs `alloc`; the borrowed
//! `&mut [u32]` is its no-alloc equivalent.)

use core::hint::black_box;
use mink_islands::{Capacity, Islands, Link, Params, StepInput, Topology, SLEEP_STEPS};
use mink_support::Real;

/// The capacities the islands' state is sized for.
const CAP: Capacity = Capacity {
    links: 5,
    contacts: 8,
    constraints: 2,
};

/// The `u32` words the state needs for [`CAP`] (0 on an overflow, which
/// `Islands::new` then refuses).
const WORDS: usize = match CAP.words() {
    Some(w) => w,
    None => 0,
};

/// Dofs of the scene: two free bodies (6 each), two hinges (1 each).
const DOFS: usize = 14;

/// Calls mink-islands's core API in both scalars.
pub fn exercise() {
    steps::<f32>();
    steps::<f64>();
}

/// Islands and hibernation of a small scene, for the scalar `R`.
fn steps<R: Real>() {
    // Link 0: the ground. Links 1, 2: free boxes. Links 3, 4: a pendulum
    // hanging from the ground.
    let links = black_box([
        Link::world(),
        Link::free(0, 6),
        Link::free(6, 6),
        Link::child(0, 12, 1),
        Link::child(3, 13, 1),
    ]);
    // Translational dofs weigh 1, rotational ones their swept radius (m).
    let (t, r) = (R::ONE, R::lit(0.1));
    let dof_length = [t, t, t, r, r, r, t, t, t, r, r, r, R::HALF, R::HALF];
    let Ok(topo) = Topology::new(&links, &dof_length) else {
        return;
    };
    black_box((topo.link_count(), topo.dof_count(), topo.dofs(4)));

    let mut words = [0u32; WORDS];
    let params = black_box(Params::<R>::new());
    let Ok(mut islands) = Islands::new(&mut words[..], &topo, CAP, params) else {
        return;
    };
    black_box(islands.capacity());

    // Both boxes rest on the ground, box 2 touches the pendulum's tip, and
    // a constraint ties box 1 to box 2; box 1 slides at 1 m/s.
    let contacts = black_box([[1, 0], [2, 0], [2, 4]]);
    let constraints = black_box([[1, 2]]);
    let mut vel = [R::ZERO; DOFS];
    vel[0] = black_box(R::ONE);
    let input = StepInput {
        contacts: &contacts,
        constraints: &constraints,
        wake: &[],
        dof_vel: &vel,
    };
    if let Ok(summary) = islands.step(&topo, &input) {
        black_box(summary);
    }
    read(&islands);

    // Without the constraint, the pendulum contact and the slide: still
    // steps, until every island has fallen asleep; then the dofs of the
    // links that fell asleep in the last step are zeroed.
    vel[0] = R::ZERO;
    let input = StepInput {
        contacts: &contacts[..2],
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    for _ in 0..SLEEP_STEPS {
        if let Ok(summary) = islands.step(&topo, &input) {
            black_box(summary);
        }
    }
    islands.zero_slept_dofs(&topo, &mut vel);
    black_box(&vel);
    read(&islands);

    // A push on box 1 (an external request) wakes its island ahead of the
    // step, and its contact with box 2 wakes box 2's; the step then wakes
    // the pendulum on request and builds the islands.
    vel[0] = black_box(R::ONE);
    let touch = black_box([[1, 2]]);
    black_box(islands.wake(&topo, &touch, &[], &[1]).ok());
    black_box(islands.woken_links());
    islands.set_params(Params::mujoco());
    let input = StepInput {
        contacts: &touch,
        constraints: &[],
        wake: &[3],
        dof_vel: &vel,
    };
    black_box(islands.step(&topo, &input).ok());
    read(&islands);
    islands.set_params(Params::no_hibernation());
    black_box(islands.params());
}

/// Reads back the last step: every island, and each link's state.
fn read<R: Real>(islands: &Islands<&mut [u32], R>) {
    for i in 0..islands.island_count() {
        black_box(islands.island(i));
    }
    for i in islands.awake_islands() {
        black_box(i);
    }
    for l in islands.slept_links() {
        black_box(l);
    }
    black_box(islands.slept_islands());
    black_box(islands.awake_links());
    black_box(islands.sleeping_island_count());
    for link in 0..CAP.links as u32 {
        black_box(islands.link_state(link));
        black_box(islands.is_asleep(link));
        black_box(islands.broadphase_asleep(link));
        black_box(islands.island_of(link));
    }
    black_box(islands.pair_is_active(1, 2));
    black_box(islands.contact_island(0));
    black_box(islands.constraint_island(0));
}
