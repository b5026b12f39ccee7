//! Island building against a breadth-first search over the same graph, on
//! random graphs up to 100,000 links and on the shapes that matter: chains,
//! trees, one huge island, all isolated links, bodies resting on the world.

use mink_islands::{
    Capacity, Islands, IslandsBuf, Link, LinkState, Params, StepInput, Topology, NO_PARENT,
};
use mink_support::Real;
use mink_testkit::{for_each_real, Rng};
use std::collections::VecDeque;

/// The islands the reference finds: per island its links (ascending),
/// contacts and constraints (input order), islands ordered by smallest link.
struct Expected {
    islands: Vec<(Vec<u32>, Vec<u32>, Vec<u32>)>,
    island_of: Vec<Option<u32>>,
}

/// Breadth-first search over moving links; edges with a fixed end dropped.
fn bfs(links: &[Link], contacts: &[[u32; 2]], constraints: &[[u32; 2]]) -> Expected {
    let n = links.len();
    let moving = |l: u32| !links[l as usize].fixed;
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut add = |a: u32, b: u32| {
        if moving(a) && moving(b) {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
    };
    for (i, l) in links.iter().enumerate() {
        if l.parent != NO_PARENT {
            add(i as u32, l.parent);
        }
    }
    for &[a, b] in contacts.iter().chain(constraints) {
        add(a, b);
    }
    let mut island_of = vec![None; n];
    let mut islands = Vec::new();
    for s in 0..n as u32 {
        if !moving(s) || island_of[s as usize].is_some() {
            continue;
        }
        let id = islands.len() as u32;
        island_of[s as usize] = Some(id);
        let mut members = vec![s];
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for &y in &adj[x as usize] {
                if island_of[y as usize].is_none() {
                    island_of[y as usize] = Some(id);
                    members.push(y);
                    queue.push_back(y);
                }
            }
        }
        members.sort_unstable();
        islands.push((members, Vec::new(), Vec::new()));
    }
    let owner = |[a, b]: [u32; 2]| {
        if moving(a) {
            island_of[a as usize]
        } else if moving(b) {
            island_of[b as usize]
        } else {
            None
        }
    };
    for (i, &e) in contacts.iter().enumerate() {
        if let Some(id) = owner(e) {
            islands[id as usize].1.push(i as u32);
        }
    }
    for (i, &e) in constraints.iter().enumerate() {
        if let Some(id) = owner(e) {
            islands[id as usize].2.push(i as u32);
        }
    }
    Expected { islands, island_of }
}

/// Builds the islands with hibernation off (owned buffer), compares with
/// the reference, and returns the island count.
fn check<R: Real>(links: &[Link], contacts: &[[u32; 2]], constraints: &[[u32; 2]]) -> usize {
    let dofs = links
        .iter()
        .map(|l| l.dof_start + l.dof_count)
        .max()
        .unwrap_or(0);
    let len = vec![R::ONE; dofs as usize];
    let vel = vec![R::ZERO; dofs as usize];
    let topo = Topology::new(links, &len).unwrap();
    let mut s: IslandsBuf<R> = Islands::owned(&topo, Params::no_hibernation()).unwrap();
    let input = StepInput {
        contacts,
        constraints,
        wake: &[],
        dof_vel: &vel,
    };
    let want = bfs(links, contacts, constraints);
    // Twice: the second step starts from the first one's state.
    for _ in 0..2 {
        let sum = s.step(&topo, &input).unwrap();
        assert_eq!(sum.islands as usize, want.islands.len());
        assert_eq!(sum.slept_islands, 0);
        for (i, (l, c, k)) in want.islands.iter().enumerate() {
            let got = s.island(i as u32).unwrap();
            assert_eq!(got.links, l.as_slice(), "island {i} links");
            assert_eq!(got.contacts, c.as_slice(), "island {i} contacts");
            assert_eq!(got.constraints, k.as_slice(), "island {i} constraints");
            assert!(!got.asleep);
        }
        for l in 0..links.len() as u32 {
            assert_eq!(s.island_of(l), want.island_of[l as usize], "link {l}");
            let state = if links[l as usize].fixed {
                LinkState::Static
            } else {
                LinkState::Awake
            };
            assert_eq!(s.link_state(l), Some(state));
        }
        for (c, &[a, b]) in contacts.iter().enumerate() {
            let owner = want.island_of[a as usize].or(want.island_of[b as usize]);
            assert_eq!(s.contact_island(c as u32), owner);
        }
    }
    want.islands.len()
}

/// `n` links: a mix of free bodies (6 dofs), children of a recent link
/// (1 dof), and fixed links (about 2%).
fn random_links(rng: &mut Rng, n: usize) -> Vec<Link> {
    let mut links = Vec::with_capacity(n);
    let mut dofs = 0;
    for i in 0..n {
        let link = if rng.chance(0.02) {
            Link::world()
        } else if i > 0 && rng.chance(0.3) {
            Link::child((i - 1 - rng.below(i.min(8))) as u32, dofs, 1)
        } else {
            Link::free(dofs, 6)
        };
        dofs += link.dof_count;
        links.push(link);
    }
    links
}

fn random_pairs(rng: &mut Rng, n: usize, m: usize) -> Vec<[u32; 2]> {
    (0..m)
        .map(|_| [rng.below(n) as u32, rng.below(n) as u32])
        .collect()
}

fn random_graphs<R: Real>() {
    let mut rng = Rng::new(11);
    let mut sizes = Vec::new();
    for case in 0..400 {
        let n = 1 + rng.below(if case % 10 == 0 { 2000 } else { 60 });
        // Sparse to dense, across the percolation threshold.
        let m = rng.below(2 * n + 1);
        let links = random_links(&mut rng, n);
        let contacts = random_pairs(&mut rng, n, m);
        let k = rng.below(4);
        let constraints = random_pairs(&mut rng, n, k);
        let islands = check::<R>(&links, &contacts, &constraints);
        sizes.push(islands as f64 / n as f64);
    }
    // The sample must hold both fragmented and merged scenes.
    let fragmented = sizes.iter().filter(|&&r| r > 0.5).count();
    let merged = sizes.iter().filter(|&&r| r < 0.2).count();
    assert!(fragmented > 40 && merged > 40, "{fragmented} {merged}");
}
for_each_real!(random_graphs_match_bfs, random_graphs);

/// 100,000 links with 200,000 random contacts, then a sparse graph of the
/// same size (many islands).
fn huge_random<R: Real>() {
    let mut rng = Rng::new(12);
    let n = 100_000;
    let links = random_links(&mut rng, n);
    let contacts = random_pairs(&mut rng, n, 2 * n);
    let constraints = random_pairs(&mut rng, n, 100);
    check::<R>(&links, &contacts, &constraints);
    let contacts = random_pairs(&mut rng, n, n / 3);
    let islands = check::<R>(&links, &contacts, &[]);
    assert!(islands > n / 4, "{islands}");
}
for_each_real!(huge_random_graphs_match_bfs, huge_random);

#[test]
fn chains() {
    let n = 100_000u32;
    // An articulated chain: one island.
    let links: Vec<Link> = (0..n)
        .map(|i| {
            if i == 0 {
                Link::free(0, 6)
            } else {
                Link::child(i - 1, 5 + i, 1)
            }
        })
        .collect();
    assert_eq!(check::<f64>(&links, &[], &[]), 1);
    // Free bodies chained by contacts, listed backwards: one island.
    let links: Vec<Link> = (0..n).map(|i| Link::free(6 * i, 6)).collect();
    let contacts: Vec<[u32; 2]> = (1..n).rev().map(|i| [i, i - 1]).collect();
    assert_eq!(check::<f64>(&links, &contacts, &[]), 1);
    // A chain of contacts broken at every 1000th link: 100 islands.
    let contacts: Vec<[u32; 2]> = (1..n)
        .filter(|i| i % 1000 != 0)
        .map(|i| [i - 1, i])
        .collect();
    assert_eq!(check::<f32>(&links, &contacts, &[]), 100);
}

#[test]
fn trees() {
    let mut rng = Rng::new(13);
    for n in [10usize, 1000, 100_000] {
        // Several random trees: roots are free bodies, every other link
        // hangs off a random earlier link.
        let mut links = Vec::with_capacity(n);
        let mut roots = 0;
        for i in 0..n {
            if i == 0 || rng.chance(0.001) {
                links.push(Link::free(0, 0));
                roots += 1;
            } else {
                links.push(Link::child(rng.below(i) as u32, 0, 0));
            }
        }
        // Every link hangs, through its ancestors, from exactly one root:
        // one island per tree.
        assert_eq!(check::<f64>(&links, &[], &[]), roots);
    }
}

#[test]
fn single_huge_island_and_all_isolated() {
    let mut rng = Rng::new(14);
    let n = 100_000u32;
    let links: Vec<Link> = (0..n).map(|i| Link::free(6 * i, 6)).collect();
    // A random spanning tree of contacts, shuffled: one island.
    let mut contacts: Vec<[u32; 2]> = (1..n).map(|i| [rng.below(i as usize) as u32, i]).collect();
    for i in (1..contacts.len()).rev() {
        contacts.swap(i, rng.below(i + 1));
    }
    assert_eq!(check::<f64>(&links, &contacts, &[]), 1);
    // No edges at all: one island per link.
    assert_eq!(check::<f64>(&links, &[], &[]), n as usize);
    // Self-contacts only: still one island per link.
    let selfish: Vec<[u32; 2]> = (0..n).map(|i| [i, i]).collect();
    assert_eq!(check::<f64>(&links, &selfish, &[]), n as usize);
}

#[test]
fn the_world_merges_nothing() {
    // Link 0 is the ground; 1000 boxes rest on it, and on fixed link 1.
    let n = 1002u32;
    let links: Vec<Link> = (0..n)
        .map(|i| {
            if i < 2 {
                Link::world()
            } else {
                Link::free(6 * (i - 2), 6)
            }
        })
        .collect();
    let contacts: Vec<[u32; 2]> = (2..n).flat_map(|i| [[i, 0], [1, i]]).collect();
    assert_eq!(check::<f64>(&links, &contacts, &[]), 1000);
    // Two arms on one fixed base (link 0): each arm its own island.
    let links = [
        Link::world(),
        Link::child(0, 0, 1),
        Link::child(1, 1, 1),
        Link::child(0, 2, 1),
        Link::child(3, 3, 1),
    ];
    assert_eq!(check::<f64>(&links, &[], &[]), 2);
    // An equality constraint between the two tips joins them.
    assert_eq!(check::<f64>(&links, &[], &[[2, 4]]), 1);
}

#[test]
fn an_entity_of_free_bodies_is_one_island_per_body() {
    // One entity: three free bodies, the second an articulated pair.
    let links = [
        Link::free(0, 6),
        Link::free(6, 6),
        Link::child(1, 12, 1),
        Link::free(13, 6),
    ];
    assert_eq!(check::<f64>(&links, &[], &[]), 3);
    assert_eq!(check::<f64>(&links, &[[2, 3]], &[]), 2);
}

/// The allocation-free path: a borrowed buffer of exactly the needed size
/// gives the same islands, and refuses one contact more, naming it.
#[test]
fn borrowed_buffer_matches_and_names_its_capacity() {
    use mink_islands::{CapacityKind, StepError};
    let mut rng = Rng::new(15);
    let n = 500;
    let links = random_links(&mut rng, n);
    let contacts = random_pairs(&mut rng, n, 400);
    let dofs = links
        .iter()
        .map(|l| l.dof_start + l.dof_count)
        .max()
        .unwrap();
    let len = vec![1.0_f32; dofs as usize];
    let vel = vec![0.0_f32; dofs as usize];
    let topo = Topology::new(&links, &len).unwrap();
    let cap = Capacity {
        links: n,
        contacts: 400,
        constraints: 0,
    };
    let mut words = vec![0u32; cap.words().unwrap()];
    let mut s = Islands::new(&mut words[..], &topo, cap, Params::no_hibernation()).unwrap();
    let input = StepInput {
        contacts: &contacts,
        constraints: &[],
        wake: &[],
        dof_vel: &vel,
    };
    let sum = s.step(&topo, &input).unwrap();
    let want = bfs(&links, &contacts, &[]);
    assert_eq!(sum.islands as usize, want.islands.len());
    for (i, (l, c, _)) in want.islands.iter().enumerate() {
        let got = s.island(i as u32).unwrap();
        assert_eq!((got.links, got.contacts), (l.as_slice(), c.as_slice()));
    }
    let more = random_pairs(&mut rng, n, 401);
    let input = StepInput {
        contacts: &more,
        ..input
    };
    assert_eq!(
        s.step(&topo, &input),
        Err(StepError::Capacity(CapacityKind::Contacts))
    );
    let one = [[0, 1]];
    let input = StepInput {
        contacts: &[],
        constraints: &one,
        ..input
    };
    assert_eq!(
        s.step(&topo, &input),
        Err(StepError::Capacity(CapacityKind::Constraints))
    );
    // The refused steps changed nothing: the islands are still the first
    // step's.
    assert_eq!(s.island_count() as usize, want.islands.len());
}
