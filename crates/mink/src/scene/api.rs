//! The methods every scene type shares, written once.

/// Expands, inside `impl` of a scene type whose field `core` is a
/// `step::Core` with islands words `$words`, the shared public methods.
macro_rules! scene_api {
    ($words:ty) => {
        /// Runs one collision step for the link poses and dof velocities of
        /// `input`:
        ///
        /// 1. each geometry's world pose (its link's pose after its local
        ///    pose) and world AABB grown by its margin;
        /// 2. the broad phase with the configured filters, geometries of
        ///    sleeping and fixed links flagged asleep;
        /// 3. the narrow phase of each pair (margin: the sum of the two),
        ///    its contacts appended in pair order, `geom_a < geom_b`;
        /// 4. wake passes: sleeping islands touched by an awake body wake,
        ///    and their geometries' pairs are detected and appended (up to
        ///    [`MAX_WAKE_PASSES`](crate::scene::MAX_WAKE_PASSES));
        /// 5. the islands step with one `[link_a, link_b]` per contact
        ///    (island contact indices index [`Self::contacts`]) and the
        ///    equality constraints; islands still long enough fall asleep.
        ///
        /// Returns the step's counts. Fails (naming the cause) on short
        /// inputs, a non-finite pose (the broad phase's invalid AABB), the
        /// pair budget, a full contact buffer (with the number found and
        /// kept) or an islands error; nothing is dropped silently.
        pub fn step(&mut self, input: &SceneInput<'_, R>) -> Result<StepReport, SceneError> {
            self.core.step_with(input, &Serial)
        }

        /// [`Self::step`] with the narrow phase split across threads (the
        /// `rayon` feature): pairs are cut into chunks in order and the
        /// chunks' contacts concatenated in order, so the output is exactly
        /// the serial one.
        #[cfg(feature = "rayon")]
        pub fn par_step(&mut self, input: &SceneInput<'_, R>) -> Result<StepReport, SceneError>
        where
            U: Sync,
        {
            self.core
                .step_with(input, &crate::scene::parallel::Parallel)
        }

        /// The counts of the last step (all zero after a failed one).
        pub fn report(&self) -> StepReport {
            self.core.report
        }

        /// The contacts of the last step, in one contiguous buffer, in pair
        /// order (after a failed step: those written before it failed).
        pub fn contacts(&self) -> &[Contact<R>] {
            self.core.contacts()
        }

        /// The last step's contacts involving `link`, each oriented so that
        /// `link` is side A.
        pub fn contacts_of(&self, link: u32) -> ContactsOf<'_, R> {
            self.core.contacts_of(link)
        }

        /// The last step's contacts between links `a` and `b`, oriented so
        /// that `a` is side A.
        pub fn contacts_between(&self, a: u32, b: u32) -> ContactsBetween<'_, R> {
            self.core.contacts_between(a, b)
        }

        /// The last step's contacts of entity `entity` (an articulation,
        /// named by its root link), oriented so that the entity is side A
        /// and kept by `filter` (other entity, self-contacts; see
        /// [`EntityFilter`]).
        pub fn contacts_of_entity(
            &self,
            entity: u32,
            filter: EntityFilter,
        ) -> EntityContacts<'_, R> {
            self.core.contacts_of_entity(entity, filter)
        }

        /// `true` when `contact`'s two sides belong to the same entity
        /// (same link or same articulation root).
        pub fn is_self_contact(&self, contact: &Contact<R>) -> bool {
            crate::scene::is_self_contact(contact, self.core.desc.links())
        }

        /// The scene's description.
        pub fn desc(&self) -> &SceneDesc<'d, R, U> {
            &self.core.desc
        }

        /// The settings.
        pub fn config(&self) -> &SceneConfig<R> {
            &self.core.config
        }

        /// Changes the settings from the next step on (hibernation
        /// settings included).
        pub fn set_config(&mut self, config: SceneConfig<R>) {
            self.core.config = config;
            self.core.islands.set_params(config.hibernation);
        }

        /// Each geometry's world pose in the last step (shape frame to
        /// world), indexed by geometry.
        pub fn geom_poses(&self) -> &[Iso3<R>] {
            use crate::scene::storage::PerGeom;
            self.core.geoms.poses()
        }

        /// Each geometry's broad-phase record in the last step (world AABB
        /// grown by the margin, filter fields, asleep flag after the wake
        /// passes).
        pub fn broadphase_geoms(&self) -> &[Geom<R>] {
            use crate::scene::storage::PerGeom;
            self.core.geoms.geoms()
        }

        /// The pairs of the last broad-phase frame (after wake passes, the
        /// last pass's frame).
        pub fn pairs(&self) -> &[CandidatePair] {
            use crate::scene::storage::Broad;
            self.core.broad.pairs()
        }

        /// The geometries as the last step placed them, for the queries.
        fn placement(&self) -> crate::scene::rays::Placement<'_, 'd, R, U> {
            use crate::scene::storage::PerGeom;
            crate::scene::rays::Placement {
                desc: &self.core.desc,
                poses: self.core.geoms.poses(),
                geoms: self.core.geoms.geoms(),
            }
        }

        /// The nearest geometry that `ray` (world frame) meets at `t` in
        /// `[0, max_toi]` (in units of the ray direction's length), among
        /// those `filter` lets through, as the last step placed them
        /// (nothing before the first step): the geometry, its link, `t`,
        /// the point and the geometry's outward normal there. A ray
        /// starting inside a geometry hits it at `t = 0` with a zero
        /// normal when `solid`, else where it leaves it. Ties go to the
        /// lower geometry index. `None` when nothing is hit, and for an
        /// invalid ray ([`Ray::is_valid`](crate::ray::Ray::is_valid)) or a
        /// negative or NaN `max_toi`.
        ///
        /// Cost: one slab test per geometry against the step's AABBs, and
        /// a narrow cast ([`Collider::ray_cast`](crate::Collider::ray_cast))
        /// for each box the ray meets before the nearest hit so far.
        pub fn ray_cast(
            &self,
            ray: &crate::ray::Ray<R>,
            max_toi: R,
            solid: bool,
            filter: &crate::scene::QueryFilter,
        ) -> Option<crate::scene::SceneRayHit<R>> {
            self.placement().ray_cast(ray, max_toi, solid, filter)
        }

        /// The geometry nearest the world point `point` among those
        /// `filter` lets through, as the last step placed them (nothing
        /// before the first step): the geometry of smallest signed
        /// distance ([`Collider::project_point`](crate::Collider::project_point):
        /// negative inside, so a geometry holding the point wins, the one
        /// it is deepest in first; among the projections that finished,
        /// [`Status::is_finished`](crate::query::Status::is_finished)), its link, the distance, the nearest
        /// surface point and the outward normal there. Ties go to the
        /// lower geometry index. `None` when no geometry is within
        /// `max_distance` (meters; `R::INFINITY` for no limit, a negative
        /// one asks for geometries the point is that deep in), and for a
        /// non-finite point or a NaN `max_distance`.
        ///
        /// Cost: one box distance per geometry against the step's AABBs,
        /// and a projection for each box nearer than the best so far.
        pub fn project_point(
            &self,
            point: mink_support::Vec3<R>,
            max_distance: R,
            filter: &crate::scene::QueryFilter,
        ) -> Option<crate::scene::ScenePointHit<R>> {
            self.placement().project_point(point, max_distance, filter)
        }

        /// Some geometry that `ray` meets within `max_toi` (the first in
        /// geometry order, not the nearest), as [`Self::ray_cast`] sees
        /// them: the cheaper question of a line of sight.
        pub fn ray_cast_any(
            &self,
            ray: &crate::ray::Ray<R>,
            max_toi: R,
            solid: bool,
            filter: &crate::scene::QueryFilter,
        ) -> Option<crate::scene::SceneRayHit<R>> {
            let mut first = None;
            self.placement()
                .ray_cast_all(ray, max_toi, solid, filter, |hit| {
                    first = Some(hit);
                    false
                });
            first
        }

        /// Every geometry that `ray` meets within `max_toi`, as
        /// [`Self::ray_cast`] sees them, each passed to `visit` (in
        /// geometry order, one hit per geometry: its first) until it
        /// returns `false`. Returns the number of hits visited.
        pub fn ray_cast_all(
            &self,
            ray: &crate::ray::Ray<R>,
            max_toi: R,
            solid: bool,
            filter: &crate::scene::QueryFilter,
            visit: impl FnMut(crate::scene::SceneRayHit<R>) -> bool,
        ) -> usize {
            self.placement()
                .ray_cast_all(ray, max_toi, solid, filter, visit)
        }

        /// [`Self::ray_cast`] for each ray of `rays`, into the same index
        /// of `out` (the first `min(rays.len(), out.len())`), split
        /// across threads (the `rayon` feature): a range sensor's scan or
        /// a camera's depth image in one call.
        #[cfg(feature = "rayon")]
        pub fn par_ray_cast(
            &self,
            rays: &[crate::ray::Ray<R>],
            max_toi: R,
            solid: bool,
            filter: &crate::scene::QueryFilter,
            out: &mut [Option<crate::scene::SceneRayHit<R>>],
        ) where
            U: Sync,
        {
            use rayon::prelude::*;
            let placement = self.placement();
            out.par_iter_mut()
                .zip(rays.par_iter())
                .with_min_len(64)
                .for_each(|(slot, ray)| *slot = placement.ray_cast(ray, max_toi, solid, filter));
        }

        /// The islands and hibernation state: the last step's islands
        /// (contact indices index [`Self::contacts`]), sleeping links, the
        /// links that fell asleep (whose velocities the caller zeroes).
        pub fn islands(&self) -> &Islands<$words, R> {
            &self.core.islands
        }
    };
}

pub(crate) use scene_api;
