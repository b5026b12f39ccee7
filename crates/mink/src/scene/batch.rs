//! Many environments of one scene (Genesis' `n_envs`): the same
//! description, each with its own link poses, state and contacts.

use super::contact::Contact;
use super::description::SceneDesc;
use super::owned::SceneBuf;
use super::report::{SceneConfig, SceneError, SceneInput, StepReport};
use alloc::vec::Vec;
use mink_support::{Real, Support, Vec3};

/// `n_envs` copies of a scene, each a [`SceneBuf`] over the same
/// description, stepped together (the `alloc` feature; in parallel with
/// `rayon`, `SceneBatch::par_step`).
///
/// Contacts are ragged: each environment keeps its own buffer
/// ([`Self::env`]`(k).contacts()`); [`Self::contacts_ragged`] gathers them
/// into one flat list with offsets, and [`Self::contacts_padded`] into a
/// rectangular `n_envs × width` array with a validity mask.
#[derive(Debug)]
pub struct SceneBatch<'d, R: Real, U = crate::shape::NoCustomShape> {
    pub(crate) envs: Vec<SceneBuf<'d, R, U>>,
}

/// Contacts of all environments in a rectangular layout: row `k` holds
/// environment `k`'s contacts, padded to the largest count.
#[derive(Clone, Debug, PartialEq)]
pub struct PaddedContacts<R> {
    /// Number of rows (environments).
    pub n_envs: usize,
    /// Number of columns: the largest contact count of an environment.
    pub width: usize,
    /// `n_envs * width` contacts, row-major; padding entries are
    /// [`PADDING_GEOM`] on both sides with zero vectors and depth.
    pub contacts: Vec<Contact<R>>,
    /// `n_envs * width` flags: `true` where the entry is a real contact.
    pub valid: Vec<bool>,
}

/// The geometry and link id of a padding entry of [`PaddedContacts`].
pub const PADDING_GEOM: u32 = u32::MAX;

impl<'d, R: Real, U: Support<R>> SceneBatch<'d, R, U> {
    /// `n_envs` environments of `desc` with `config`, every moving link
    /// awake. Refused as [`SceneBuf::new`] refuses.
    pub fn new(
        desc: SceneDesc<'d, R, U>,
        config: SceneConfig<R>,
        n_envs: usize,
    ) -> Result<Self, SceneError> {
        let mut envs = Vec::with_capacity(n_envs);
        for _ in 0..n_envs {
            envs.push(SceneBuf::new(desc, config)?);
        }
        Ok(Self { envs })
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// `true` with no environment.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// Environment `k`, or `None`.
    pub fn env(&self, k: usize) -> Option<&SceneBuf<'d, R, U>> {
        self.envs.get(k)
    }

    /// The environments, mutably (to set budgets or configs per
    /// environment).
    pub fn envs_mut(&mut self) -> &mut [SceneBuf<'d, R, U>] {
        &mut self.envs
    }

    /// Steps environment `k` with `inputs[k]`, serially. Processes the
    /// shortest of the environment count and `inputs.len()`; one result per
    /// environment processed.
    pub fn step(&mut self, inputs: &[SceneInput<'_, R>]) -> Vec<Result<StepReport, SceneError>> {
        self.envs
            .iter_mut()
            .zip(inputs)
            .map(|(env, input)| env.step(input))
            .collect()
    }

    /// Every environment's last contacts in one flat list: environment `k`'s
    /// are `contacts[offsets[k]..offsets[k + 1]]` (`offsets` has
    /// `n_envs + 1` entries). Both vectors are cleared first.
    pub fn contacts_ragged(&self, contacts: &mut Vec<Contact<R>>, offsets: &mut Vec<usize>) {
        contacts.clear();
        offsets.clear();
        offsets.push(0);
        for env in &self.envs {
            contacts.extend_from_slice(env.contacts());
            offsets.push(contacts.len());
        }
    }

    /// Every environment's last contacts padded to a rectangle, with the
    /// validity mask (as Genesis' `valid_mask`).
    pub fn contacts_padded(&self) -> PaddedContacts<R> {
        let width = self
            .envs
            .iter()
            .map(|e| e.contacts().len())
            .max()
            .unwrap_or(0);
        let pad = Contact {
            geom_a: PADDING_GEOM,
            geom_b: PADDING_GEOM,
            link_a: PADDING_GEOM,
            link_b: PADDING_GEOM,
            position: Vec3::ZERO,
            normal: Vec3::ZERO,
            depth: R::ZERO,
        };
        let n_envs = self.envs.len();
        let mut contacts = Vec::with_capacity(n_envs * width);
        let mut valid = Vec::with_capacity(n_envs * width);
        for env in &self.envs {
            let row = env.contacts();
            contacts.extend_from_slice(row);
            valid.extend(core::iter::repeat_n(true, row.len()));
            contacts.extend(core::iter::repeat_n(pad, width - row.len()));
            valid.extend(core::iter::repeat_n(false, width - row.len()));
        }
        PaddedContacts {
            n_envs,
            width,
            contacts,
            valid,
        }
    }
}
