//! The hibernation settings.

use mink_support::Real;

/// Consecutive steps a link must spend under the speed threshold before it
/// is ready to sleep (the seed's 10 steps). An island sleeps on the step
/// its last link becomes ready.
pub const SLEEP_STEPS: u32 = 10;

/// Default speed threshold below which a link may sleep, in m/s.
pub const DEFAULT_THRESH_VEL: f64 = 2e-3;

/// The speed threshold of the MuJoCo-compatible preset, in m/s.
pub const MUJOCO_THRESH_VEL: f64 = 1e-4;

/// Hibernation settings.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Params<R> {
    /// When `false`, links never fall asleep (islands are still built, and
    /// islands already asleep stay asleep until something wakes them).
    pub hibernation: bool,
    /// The weighted dof speed, in m/s, under which a link counts as still:
    /// every dof must satisfy `|velocity| * dof_length < thresh_vel`.
    /// A NaN or non-positive threshold makes no link still.
    pub thresh_vel: R,
}

impl<R: Real> Params<R> {
    /// Hibernation on, with [`DEFAULT_THRESH_VEL`] (2e-3 m/s).
    pub fn new() -> Self {
        Self {
            hibernation: true,
            thresh_vel: R::lit(DEFAULT_THRESH_VEL),
        }
    }

    /// Hibernation on, with the MuJoCo-compatible [`MUJOCO_THRESH_VEL`]
    /// (1e-4 m/s).
    pub fn mujoco() -> Self {
        Self {
            hibernation: true,
            thresh_vel: R::lit(MUJOCO_THRESH_VEL),
        }
    }

    /// Islands only: no link ever falls asleep.
    pub fn no_hibernation() -> Self {
        Self {
            hibernation: false,
            thresh_vel: R::lit(DEFAULT_THRESH_VEL),
        }
    }
}

impl<R: Real> Default for Params<R> {
    /// Same as [`Params::new`].
    fn default() -> Self {
        Self::new()
    }
}
