//! The allocation-free scene, over caller-provided [`SceneBuffers`].

use super::contact::{Contact, ContactsBetween, ContactsOf, EntityContacts, EntityFilter};
use super::description::SceneDesc;
use super::memory::NoMemory;
use super::report::{SceneConfig, SceneError, SceneInput, StepReport};
use super::step::{Core, Serial};
use super::storage::{FixedBroad, FixedGeoms, FixedSink, SceneBuffers};
use crate::shape::NoCustomShape;
use mink_broadphase::{CandidatePair, Geom, SweepAndPrune};
use mink_islands::{Capacity, Islands};
use mink_support::{Iso3, Real, Support};

/// A scene stepped through the whole collision pipeline, on caller-provided
/// storage ([`SceneBuffers`]): `no_std`, no allocator, fixed capacities
/// (pair budget, contact buffer) reported as errors when exceeded.
///
/// `'d` borrows the description, `'a` the buffers. See
/// [`SceneBuf`](super::SceneBuf) for the owning variant and the module
/// docs for the step.
#[derive(Debug)]
pub struct Scene<'d, 'a, R: Real, U = NoCustomShape> {
    core: FixedCore<'d, 'a, R, U>,
}

/// The step's state over caller-provided storage.
type FixedCore<'d, 'a, R, U> =
    Core<'d, R, U, FixedGeoms<'a, R>, FixedBroad<'a, R>, FixedSink<'a, R>, &'a mut [u32], NoMemory>;

/// `Ok` when `given >= needed`, else the storage error naming `buffer`.
fn need(buffer: &'static str, given: usize, needed: usize) -> Result<(), SceneError> {
    if given < needed {
        Err(SceneError::StorageTooSmall {
            buffer,
            needed,
            given,
        })
    } else {
        Ok(())
    }
}

impl<'d, 'a, R: Real, U: Support<R>> Scene<'d, 'a, R, U> {
    /// A scene over `desc` in `buffers`, every moving link awake.
    ///
    /// Refuses buffers shorter than [`SceneBuffers`] documents
    /// ([`SceneError::StorageTooSmall`] naming the buffer, or the broad
    /// phase's or islands' own capacity error).
    pub fn new(
        desc: SceneDesc<'d, R, U>,
        buffers: SceneBuffers<'a, R>,
        config: SceneConfig<R>,
    ) -> Result<Self, SceneError> {
        let n = desc.geoms().len();
        let SceneBuffers {
            broadphase,
            pairs,
            geoms,
            poses,
            flags,
            contacts,
            contact_links,
            islands,
        } = buffers;
        need("geoms", geoms.len(), n)?;
        need("poses", poses.len(), n)?;
        need("flags", flags.len(), n)?;
        need("contact_links", contact_links.len(), contacts.len())?;
        broadphase.check(n)?;
        let cap = Capacity {
            links: desc.link_count(),
            contacts: contacts.len(),
            constraints: desc.constraints().len(),
        };
        let islands = Islands::new(islands, desc.topology(), cap, config.hibernation)?;
        Ok(Self {
            core: Core {
                desc,
                config,
                geoms: FixedGeoms {
                    poses: &mut poses[..n],
                    geoms: &mut geoms[..n],
                    flags: &mut flags[..n],
                },
                broad: FixedBroad {
                    sap: SweepAndPrune::new(broadphase),
                    out: pairs,
                    len: 0,
                },
                sink: FixedSink {
                    contacts,
                    links: contact_links,
                    len: 0,
                },
                islands,
                memory: NoMemory,
                report: StepReport::default(),
            },
        })
    }

    /// The contact capacity (the length of the contact buffer).
    pub fn contact_capacity(&self) -> usize {
        self.core.sink.contacts.len()
    }

    /// The pair budget (the length of the pair buffer).
    pub fn pair_budget(&self) -> usize {
        self.core.broad.out.len()
    }

    super::scene_api!(&'a mut [u32]);
}
