//! # mink-query
//!
//! Replays collision queries written in mink's JSON Lines query format
//! (`shared/query-format.md`): one query per line in, one result per line
//! out, in the same order, in `f32` or `f64`, with the algorithm chosen by
//! mink's pair table or forced (`--algo`).
//!
//! The query kinds: `"distance"`, `"intersect"`, `"penetration"` and
//! `"manifold"` ask about two shapes `a` and `b`; `"ray"` (where a ray
//! `origin + t·dir` first meets shape `a`: `hit`, `toi`, `point`, `normal`)
//! and `"point"` (where a world point stands relative to shape `a`:
//! `inside`, signed `distance`, `projection`, `normal`) ask about one shape
//! and need no `b`; `--algo` does not apply to them. `"cast"` is in the
//! format but not in mink yet: its lines answer `ok: false`.
//!
//! The binary is a thin loop over [`answer_line`]; the steps are public so
//! that they can be tested and reused: [`spec`] parses a line into plain
//! `f64` data, [`build`] turns it into mink shapes and poses in the chosen
//! scalar, [`answer`] runs the query and writes the result line.
//!
//! ```
//! use mink_query::{answer_line, Algo, Scalar};
//!
//! let line = r#"{"id": 1, "a": {"type": "sphere", "radius": 1},
//!   "b": {"type": "sphere", "radius": 1},
//!   "pose_b": {"translation": [3, 0, 0], "rotation": [1, 0, 0, 0]}}"#;
//! let out: serde_json::Value =
//!     serde_json::from_str(&answer_line(line, Scalar::F64, Algo::Auto)).unwrap();
//! assert_eq!(out["ok"], true);
//! assert_eq!(out["distance"], 1.0);
//! assert_eq!(out["algo"], "analytic");
//!
//! // A ray along +x from x = -3 meets the unit sphere at x = -1.
//! let ray = r#"{"id": 2, "query": "ray", "a": {"type": "sphere", "radius": 1},
//!   "origin": [-3, 0, 0], "dir": [1, 0, 0]}"#;
//! let out: serde_json::Value =
//!     serde_json::from_str(&answer_line(ray, Scalar::F64, Algo::Auto)).unwrap();
//! assert_eq!(out["hit"], true);
//! assert_eq!(out["toi"], 2.0);
//! assert_eq!(out["normal"], serde_json::json!([-1.0, 0.0, 0.0]));
//! ```

pub mod answer;
pub mod build;
pub mod scene;
pub mod spec;

pub use answer::{answer_line, Algo, Scalar};
pub use scene::{parse_scene, replay_scene, write_scene};
