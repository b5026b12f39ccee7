//! Running one parsed query through mink and writing its result line.
//!
//! Pair queries go through mink's pair table with the chosen [`Algo`];
//! ray queries through [`mink::ray::ray_cast`] and point queries through
//! [`mink::query::project_point`], which have no algorithm to choose:
//! `--algo` does not apply to them (not even `sat`).

use crate::build::{build_margin, build_pose, build_shape};
use crate::spec::{
    parse_line, CastSpec, GeometrySpec, PairKind, PoseSpec, Query, QuerySpec, RaySpec,
};
use mink::cast::{shape_cast, CastStatus};
use mink::query::{project_point, Overlap, PointProjection, Proximity, Status};
use mink::ray::{ray_cast, Ray, RayCast, RayStatus};
use mink::support::{Real, Vec3};
use mink::{contact_manifold, Body, ContactParams, Method};
use serde_json::{json, Map, Value};

/// The scalar the queries run in (`--scalar`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scalar {
    /// Single precision.
    F32,
    /// Double precision (the default).
    #[default]
    F64,
}

impl Scalar {
    /// Parses `"f32"` or `"f64"`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "f32" => Some(Scalar::F32),
            "f64" => Some(Scalar::F64),
            _ => None,
        }
    }
}

/// The algorithm asked for (`--algo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algo {
    /// mink's pair table (analytic, GJK, MPR).
    #[default]
    Auto,
    /// GJK (GJK+EPA for depths).
    Gjk,
    /// GJK+EPA.
    Epa,
    /// MPR (GJK for the gap of separated shapes).
    Mpr,
    /// The separating-axis test: not available yet, every pair query
    /// answers `ok: false` (ray and point queries do not use it).
    Sat,
}

impl Algo {
    /// Parses `auto`, `gjk`, `epa`, `mpr` or `sat`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "auto" => Some(Algo::Auto),
            "gjk" => Some(Algo::Gjk),
            "epa" => Some(Algo::Epa),
            "mpr" => Some(Algo::Mpr),
            "sat" => Some(Algo::Sat),
            _ => None,
        }
    }

    fn method(self) -> Result<Method, String> {
        match self {
            Algo::Auto => Ok(Method::Auto),
            Algo::Gjk => Ok(Method::Gjk),
            Algo::Epa => Ok(Method::Epa),
            Algo::Mpr => Ok(Method::Mpr),
            Algo::Sat => Err("the SAT algorithm is not available in mink yet".into()),
        }
    }
}

/// The result line for one input line (no trailing newline): the query's
/// answer, or `{"id": .., "ok": false, "error": ".."}` when the line cannot
/// be parsed or answered. Never panics.
pub fn answer_line(line: &str, scalar: Scalar, algo: Algo) -> String {
    let value = match parse_line(line) {
        Ok(q) => {
            let answer = match scalar {
                Scalar::F32 => evaluate::<f32>(&q, algo),
                Scalar::F64 => evaluate::<f64>(&q, algo),
            };
            match answer {
                Ok(fields) => with_id(q.id, fields),
                Err(reason) => error(q.id, &reason),
            }
        }
        Err(e) => error(e.id, &e.reason),
    };
    value.to_string()
}

fn error(id: Value, reason: &str) -> Value {
    json!({"id": id, "ok": false, "error": reason})
}

fn with_id(id: Value, mut fields: Map<String, Value>) -> Value {
    fields.insert("id".into(), id);
    fields.insert("ok".into(), Value::Bool(true));
    Value::Object(fields)
}

fn vec3<R: Real>(p: Vec3<R>) -> Value {
    json!([p.x.to_f64(), p.y.to_f64(), p.z.to_f64()])
}

/// Why a failed status has no answer, in words.
fn failure(status: Status) -> Option<&'static str> {
    match status {
        Status::InvalidInput => Some("non-finite input or result (overflow in this scalar?)"),
        Status::Unsupported => Some("two planes have no distance or depth"),
        _ => None,
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Exact => "exact",
        Status::Converged => "converged",
        Status::Unverified => "unverified",
        Status::IterationLimit => "iteration_limit",
        Status::Degenerate => "degenerate",
        Status::InvalidInput => "invalid_input",
        Status::Unsupported => "unsupported",
    }
}

/// Builds the shapes of `q` in `R` and answers it: a pair query with
/// `algo`, a ray or point query with its own routine (`algo` does not
/// apply). The result fields (without `id` and `ok`), or the reason it
/// cannot be answered.
pub fn evaluate<R: Real>(q: &QuerySpec, algo: Algo) -> Result<Map<String, Value>, String> {
    match &q.query {
        Query::Pair { kind, b, pose_b } => pair::<R>(q, *kind, b, pose_b, algo),
        Query::Ray(ray) => {
            let built = build_shape::<R>(&q.a, "shape a")?;
            let shape = built.shape();
            let a = Body::new(&shape, build_pose(&q.pose_a, "pose_a")?)
                .with_margin(build_margin(&q.a, "shape a")?);
            cast(&a, ray)
        }
        Query::Cast(spec) => sweep::<R>(q, spec),
        Query::Point(point) => {
            let built = build_shape::<R>(&q.a, "shape a")?;
            let shape = built.shape();
            let a = Body::new(&shape, build_pose(&q.pose_a, "pose_a")?)
                .with_margin(build_margin(&q.a, "shape a")?);
            let p = finite_vec3::<R>(*point, "\"point\"")?;
            projection(project_point(&a, p))
        }
    }
}

/// A pair query: shapes `a` (of `q`) and `b`.
fn pair<R: Real>(
    q: &QuerySpec,
    kind: PairKind,
    b: &GeometrySpec,
    pose_b: &PoseSpec,
    algo: Algo,
) -> Result<Map<String, Value>, String> {
    let method = algo.method()?;
    let built_a = build_shape::<R>(&q.a, "shape a")?;
    let built_b = build_shape::<R>(b, "shape b")?;
    let (shape_a, shape_b) = (built_a.shape(), built_b.shape());
    let a = Body::new(&shape_a, build_pose(&q.pose_a, "pose_a")?)
        .with_margin(build_margin(&q.a, "shape a")?);
    let b =
        Body::new(&shape_b, build_pose(pose_b, "pose_b")?).with_margin(build_margin(b, "shape b")?);
    match kind {
        PairKind::Distance => proximity(mink::distance(&a, &b, method)),
        PairKind::Penetration => proximity(mink::penetration(&a, &b, method)),
        PairKind::Intersect => overlap(mink::intersect(&a, &b, method)),
        PairKind::Manifold => manifold(&a, &b, method),
    }
}

/// `v` in `R`, or an error naming `what` when it is not finite there
/// (too large for `f32`).
fn finite_vec3<R: Real>(v: [f64; 3], what: &str) -> Result<Vec3<R>, String> {
    let p = Vec3::new(R::lit(v[0]), R::lit(v[1]), R::lit(v[2]));
    if p.is_finite() {
        Ok(p)
    } else {
        Err(format!("{what} is not finite in this scalar"))
    }
}

/// `true` when every number of `fields` is finite (an answer never
/// carries a NaN or an infinity; `json!` writes them as `null`).
fn all_finite(fields: &Map<String, Value>) -> bool {
    fn finite(v: &Value) -> bool {
        match v {
            Value::Null => false,
            Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
            Value::Array(a) => a.iter().all(finite),
            _ => true,
        }
    }
    fields.values().all(finite)
}

/// A `"ray"` query against body `a`: `hit`, and when it hits `toi`,
/// `point` and `normal`.
fn cast<R: Real>(a: &Body<'_, '_, R>, spec: &RaySpec) -> Result<Map<String, Value>, String> {
    let origin = finite_vec3::<R>(spec.origin, "\"origin\"")?;
    let dir = finite_vec3::<R>(spec.dir, "\"dir\"")?;
    // The casts work with the squared length: it must neither vanish nor
    // overflow.
    let dd = dir.norm_squared();
    if !(dd > R::ZERO) {
        return Err("\"dir\" is too small for this scalar (its length rounds to 0)".into());
    }
    if !dd.finite() {
        return Err("\"dir\" is too long for this scalar (its squared length overflows)".into());
    }
    // A finite `max_toi` too large for `f32` rounds to infinity there,
    // which means the same: no bound.
    let max_toi = R::lit(spec.max_toi);
    let c: RayCast<R> = ray_cast(a, &Ray::new(origin, dir), max_toi, spec.solid);
    let mut m = Map::new();
    match c.status {
        RayStatus::Hit => {
            m.insert("hit".into(), Value::Bool(true));
            m.insert("toi".into(), json!(c.toi.to_f64()));
            m.insert("point".into(), vec3(c.point));
            m.insert("normal".into(), vec3(c.normal));
        }
        RayStatus::Inside => {
            m.insert("hit".into(), Value::Bool(true));
            m.insert("toi".into(), json!(0.0));
            m.insert("point".into(), vec3(origin));
            m.insert("normal".into(), json!([0.0, 0.0, 0.0]));
        }
        RayStatus::Miss => {
            m.insert("hit".into(), Value::Bool(false));
        }
        RayStatus::IterationLimit => {
            return Err("the ray cast did not converge (iteration limit)".into());
        }
        RayStatus::NonFinite => return Err("non-finite or zero ray, pose or max_toi".into()),
    }
    if !all_finite(&m) {
        return Err("the ray cast overflowed in this scalar".into());
    }
    Ok(m)
}

/// A `"cast"` query: `hit`, and when it hits `toi`, `p_a`, `p_b`,
/// `normal`, `status` (`"converged"`, or `"iteration_limit"` when the
/// motion is proven clear only up to `toi`, reported as a hit there) and
/// `initial` (`true` when the shapes start within the target distance).
fn sweep<R: Real>(q: &QuerySpec, spec: &CastSpec) -> Result<Map<String, Value>, String> {
    let built_a = build_shape::<R>(&q.a, "shape a")?;
    let built_b = build_shape::<R>(&spec.b, "shape b")?;
    let (shape_a, shape_b) = (built_a.shape(), built_b.shape());
    let a = Body::new(&shape_a, build_pose(&q.pose_a, "pose_a")?)
        .with_margin(build_margin(&q.a, "shape a")?);
    let b = Body::new(&shape_b, build_pose(&spec.pose_b, "pose_b")?)
        .with_margin(build_margin(&spec.b, "shape b")?);
    let end_a = build_pose::<R>(&spec.pose_a_end, "pose_a_end")?;
    let end_b = build_pose::<R>(&spec.pose_b_end, "pose_b_end")?;
    let target = R::lit(spec.target_distance);
    if !target.finite() {
        return Err("\"target_distance\" is not finite in this scalar".into());
    }
    let c = shape_cast(&a, &end_a, &b, &end_b, target);
    let status = match c.status {
        CastStatus::Hit | CastStatus::Initial => "converged",
        CastStatus::IterationLimit => "iteration_limit",
        CastStatus::Miss => {
            let mut m = Map::new();
            m.insert("hit".into(), Value::Bool(false));
            return Ok(m);
        }
        CastStatus::NonFinite => return Err("non-finite pose, margin or target".into()),
        CastStatus::Unsupported => return Err("two planes have no shape cast".into()),
    };
    let mut m = Map::new();
    m.insert("hit".into(), Value::Bool(true));
    m.insert("toi".into(), json!(c.toi.to_f64()));
    m.insert("p_a".into(), vec3(c.p_a));
    m.insert("p_b".into(), vec3(c.p_b));
    m.insert("normal".into(), vec3(c.normal));
    m.insert("status".into(), json!(status));
    m.insert(
        "initial".into(),
        Value::Bool(c.status == CastStatus::Initial),
    );
    if !all_finite(&m) {
        return Err("the shape cast overflowed in this scalar".into());
    }
    Ok(m)
}

/// A `"point"` query's answer: `inside`, `distance`, `projection`,
/// `normal` and the `status` of the distance query behind it.
fn projection<R: Real>(p: PointProjection<R>) -> Result<Map<String, Value>, String> {
    match p.status {
        Status::InvalidInput => {
            return Err("non-finite input or result (overflow in this scalar?)".into())
        }
        Status::Unsupported => return Err("no point projection for this shape".into()),
        _ => {}
    }
    let mut m = Map::new();
    m.insert("inside".into(), Value::Bool(p.inside));
    m.insert("distance".into(), json!(p.distance.to_f64()));
    m.insert("projection".into(), vec3(p.projection));
    m.insert("normal".into(), vec3(p.normal));
    m.insert("status".into(), json!(status_name(p.status)));
    if !all_finite(&m) {
        return Err("the point projection overflowed in this scalar".into());
    }
    Ok(m)
}

fn proximity<R: Real>(p: Proximity<R>) -> Result<Map<String, Value>, String> {
    if let Some(why) = failure(p.status) {
        return Err(why.into());
    }
    let mut m = Map::new();
    m.insert("collide".into(), Value::Bool(p.distance <= R::ZERO));
    m.insert("distance".into(), json!(p.distance.to_f64()));
    m.insert("p_a".into(), vec3(p.p_a));
    m.insert("p_b".into(), vec3(p.p_b));
    m.insert("normal".into(), vec3(p.normal));
    m.insert("iterations".into(), json!(p.iterations));
    m.insert("algo".into(), json!(p.algorithm.name()));
    m.insert("status".into(), json!(status_name(p.status)));
    Ok(m)
}

/// The distance fields of the pair, plus `"contacts"`: the contact
/// manifold (no speculative margin), one object per point.
fn manifold<R: Real>(
    a: &Body<'_, '_, R>,
    b: &Body<'_, '_, R>,
    method: Method,
) -> Result<Map<String, Value>, String> {
    let mut m = proximity(mink::distance(a, b, method))?;
    let params = ContactParams {
        method,
        ..ContactParams::new()
    };
    let contacts: Vec<Value> = contact_manifold(a, b, &params)
        .as_slice()
        .iter()
        .map(|c| {
            json!({
                "position": vec3(c.position),
                "normal": vec3(c.normal),
                "depth": c.depth.to_f64(),
            })
        })
        .collect();
    m.insert("contacts".into(), Value::Array(contacts));
    Ok(m)
}

fn overlap(o: Overlap) -> Result<Map<String, Value>, String> {
    if let Some(why) = failure(o.status) {
        return Err(why.into());
    }
    let mut m = Map::new();
    m.insert("collide".into(), Value::Bool(o.intersecting));
    m.insert("iterations".into(), json!(o.iterations));
    m.insert("algo".into(), json!(o.algorithm.name()));
    m.insert("status".into(), json!(status_name(o.status)));
    Ok(m)
}
