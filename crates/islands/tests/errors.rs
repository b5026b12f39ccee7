//! Bad input: refused with an error naming the problem, and a refused call
//! changes nothing.

use mink_islands::{
    Capacity, CapacityKind, InputList, Islands, IslandsBuf, Link, Params, StepError, StepInput,
    Topology, TopologyError, NO_PARENT,
};

#[test]
fn topology_errors_name_the_link_or_dof() {
    let len = [1.0_f64; 4];
    let cases: [(&[Link], TopologyError); 5] = [
        (
            &[Link::free(0, 1), Link::child(1, 1, 1)],
            TopologyError::ParentNotBefore { link: 1 },
        ),
        (
            &[Link::free(0, 1), Link::child(5, 1, 1)],
            TopologyError::ParentNotBefore { link: 1 },
        ),
        (
            &[
                Link::free(0, 1),
                Link {
                    parent: 0,
                    fixed: true,
                    dof_start: 0,
                    dof_count: 0,
                },
            ],
            TopologyError::FixedUnderMovingParent { link: 1 },
        ),
        (
            &[Link {
                parent: NO_PARENT,
                fixed: true,
                dof_start: 0,
                dof_count: 2,
            }],
            TopologyError::FixedLinkWithDofs { link: 0 },
        ),
        (
            &[Link::free(0, 2), Link::free(2, 3)],
            TopologyError::DofRangeOutOfBounds { link: 1 },
        ),
    ];
    for (links, err) in cases {
        assert_eq!(Topology::new(links, &len).err(), Some(err));
    }
    let bad = [1.0, -0.5, 1.0];
    assert_eq!(
        Topology::new(&[Link::free(0, 3)], &bad).err(),
        Some(TopologyError::BadDofLength { dof: 1 })
    );
    let nan = [1.0, 1.0, f64::NAN];
    assert_eq!(
        Topology::new(&[Link::free(0, 3)], &nan).err(),
        Some(TopologyError::BadDofLength { dof: 2 })
    );
    // A fixed child of a fixed base is fine.
    let ok = [
        Link::world(),
        Link {
            parent: 0,
            ..Link::world()
        },
    ];
    assert!(Topology::new(&ok, &len).is_ok());
}

#[test]
fn state_errors() {
    let links = [Link::world(), Link::free(0, 1), Link::free(1, 1)];
    let len = [1.0_f32; 2];
    let topo = Topology::new(&links, &len).unwrap();
    let cap = Capacity {
        links: 3,
        contacts: 2,
        constraints: 1,
    };
    let mut small = vec![0u32; cap.words().unwrap() - 1];
    assert_eq!(
        Islands::new(&mut small[..], &topo, cap, Params::new()).err(),
        Some(StepError::Capacity(CapacityKind::Words))
    );
    let wrong = Capacity { links: 4, ..cap };
    let mut words = vec![0u32; wrong.words().unwrap()];
    assert_eq!(
        Islands::new(&mut words[..], &topo, wrong, Params::new()).err(),
        Some(StepError::Capacity(CapacityKind::Links))
    );
    let other_links = [Link::world(), Link::free(0, 1)];
    let other = Topology::new(&other_links, &len).unwrap();
    let mut s: IslandsBuf<f32> = Islands::owned(&topo, Params::new()).unwrap();
    let vel = [0.0_f32; 2];
    let input = StepInput {
        contacts: &[],
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    assert_eq!(s.step(&other, &input), Err(StepError::TopologyMismatch));
    let short = StepInput {
        dof_vel: &vel[..1],
        ..input
    };
    assert_eq!(s.step(&topo, &short), Err(StepError::VelocityTooShort));
}

/// Out-of-range link indices in each list are refused, naming the list and
/// entry, and leave sleeping islands asleep (no partial wake).
#[test]
fn out_of_range_links_change_nothing() {
    let links = [Link::world(), Link::free(0, 1), Link::free(1, 1)];
    let len = [1.0_f64; 2];
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<f64> = Islands::owned(&topo, Params::new()).unwrap();
    let still = [0.0, 0.0];
    let moving = [0.0, 1.0];
    // Link 1 sleeps, link 2 keeps moving.
    for _ in 0..10 {
        let input = StepInput {
            contacts: &[],
            constraints: &[],
            wake: &[],
            dof_vel: &moving,
        };
        s.step(&topo, &input).unwrap();
    }
    assert!(s.is_asleep(1) && !s.is_asleep(2));
    let islands_before = s.island_count();
    // Each bad list comes after an entry that would wake link 1.
    type Case<'a> = (&'a [[u32; 2]], &'a [[u32; 2]], &'a [u32], InputList, u32);
    let wake_then_bad: [Case<'_>; 3] = [
        (&[[2, 1], [0, 3]], &[], &[], InputList::Contacts, 1),
        (&[[2, 1]], &[[9, 1]], &[], InputList::Constraints, 0),
        (&[], &[], &[1, 3], InputList::WakeRequests, 1),
    ];
    for (contacts, constraints, wake, list, index) in wake_then_bad {
        let input = StepInput {
            contacts,
            constraints,
            wake,
            dof_vel: &still,
        };
        let err = Err(StepError::LinkOutOfRange { list, index });
        assert_eq!(s.step(&topo, &input).map(|_| ()), err);
        assert_eq!(s.wake(&topo, contacts, constraints, wake).map(|_| ()), err);
        assert!(s.is_asleep(1), "{list:?}");
        assert_eq!(s.island_count(), islands_before);
    }
    // A good contact then wakes it.
    let input = StepInput {
        contacts: &[[2, 1]],
        constraints: &[],
        wake: &[],
        dof_vel: &still,
    };
    assert_eq!(s.step(&topo, &input).unwrap().woken_links, 1);
}

/// NaN velocities count as moving: the link never sleeps.
#[test]
fn nan_velocity_keeps_a_link_awake() {
    let links = [Link::free(0, 2)];
    let len = [1.0_f64, 1.0];
    let topo = Topology::new(&links, &len).unwrap();
    let mut s: IslandsBuf<f64> = Islands::owned(&topo, Params::new()).unwrap();
    for vel in [[0.0, f64::NAN], [f64::INFINITY, 0.0]] {
        for _ in 0..30 {
            let input = StepInput {
                contacts: &[],
                constraints: &[],
                wake: &[],
                dof_vel: &vel,
            };
            assert_eq!(s.step(&topo, &input).unwrap().slept_islands, 0);
        }
    }
    // A NaN threshold makes nothing still either.
    s.set_params(Params {
        hibernation: true,
        thresh_vel: f64::NAN,
    });
    let vel = [0.0, 0.0];
    for _ in 0..30 {
        let input = StepInput {
            contacts: &[],
            constraints: &[],
            wake: &[],
            dof_vel: &vel,
        };
        assert_eq!(s.step(&topo, &input).unwrap().slept_islands, 0);
    }
}
