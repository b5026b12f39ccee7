//! One query line, parsed into plain data (f64) before any shape is built.
//!
//! A line asks about two shapes (`"distance"`, `"intersect"`,
//! `"penetration"`, `"manifold"`: [`Query::Pair`]) or about one: a ray
//! cast (`"ray"`: [`Query::Ray`]) or a point projection (`"point"`:
//! [`Query::Point`]), which have no `b`; or a shape cast of two moving
//! shapes (`"cast"`: [`Query::Cast`]).
//!
//! Parsing never panics: every field that is missing, of the wrong type or
//! not finite becomes an error message naming the field.

use serde_json::Value;

/// Which question a pair query (`a` and `b`) asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairKind {
    /// Signed distance, witnesses and normal.
    Distance,
    /// Overlap only.
    Intersect,
    /// Depth, normal and witnesses when overlapping.
    Penetration,
    /// Contact points.
    Manifold,
}

/// The ray of a `"ray"` query, in f64, as written (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaySpec {
    /// Where the ray starts, meters (`"origin"`).
    pub origin: [f64; 3],
    /// Its direction, finite and not zero; `t` counts in units of its
    /// length (`"dir"`).
    pub dir: [f64; 3],
    /// The largest `t` that counts: `>= 0`, infinity when absent
    /// (`"max_toi"`).
    pub max_toi: f64,
    /// Whether a ray starting inside hits at once (`"solid"`, default
    /// `true`).
    pub solid: bool,
}

/// What a line asks, with the fields only that question has.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// A question about two shapes: `a` and `b`.
    Pair {
        /// Which question.
        kind: PairKind,
        /// Shape B.
        b: GeometrySpec,
        /// Pose of B.
        pose_b: PoseSpec,
    },
    /// `"ray"`: where a ray first meets shape `a`.
    Ray(RaySpec),
    /// `"point"`: where a world point stands relative to shape `a`
    /// (`"point"`, meters).
    Point([f64; 3]),
    /// `"cast"`: the first time `a` and `b`, moving from their poses to
    /// their end poses, come within a target distance.
    Cast(CastSpec),
}

/// The fields of a `"cast"` query besides `a` and `pose_a`.
#[derive(Clone, Debug, PartialEq)]
pub struct CastSpec {
    /// Shape B.
    pub b: GeometrySpec,
    /// B's pose at `t = 0`.
    pub pose_b: PoseSpec,
    /// A's pose at `t = 1` (`"pose_a_end"`; A's start pose when absent).
    pub pose_a_end: PoseSpec,
    /// B's pose at `t = 1` (`"pose_b_end"`; B's start pose when absent).
    pub pose_b_end: PoseSpec,
    /// The distance that counts as contact, meters, finite and `>= 0`
    /// (`"target_distance"`, 0 when absent).
    pub target_distance: f64,
}

/// A shape as written in the query format, in f64.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// `{"type": "point"}`
    Point,
    /// `{"type": "sphere", "radius": r}`
    Sphere {
        /// Radius, meters.
        radius: f64,
    },
    /// `{"type": "ellipsoid", "radii": [a, b, c]}`
    Ellipsoid {
        /// Semi-axes along local x, y, z, meters.
        radii: [f64; 3],
    },
    /// `{"type": "box", "half_extents": [x, y, z]}`
    Box {
        /// Half-extents, meters.
        half_extents: [f64; 3],
    },
    /// `{"type": "capsule", "radius": r, "half_length": h}`
    Capsule {
        /// Radius, meters.
        radius: f64,
        /// Half the core segment's length, meters.
        half_length: f64,
    },
    /// `{"type": "cylinder", "radius": r, "half_length": h}`
    Cylinder {
        /// Radius, meters.
        radius: f64,
        /// Half the height, meters.
        half_length: f64,
    },
    /// `{"type": "cone", "radius": r, "half_length": h}`
    Cone {
        /// Base radius, meters.
        radius: f64,
        /// Half the height, meters (apex at +h).
        half_length: f64,
    },
    /// `{"type": "segment", "a": [..], "b": [..]}`
    Segment {
        /// First end.
        a: [f64; 3],
        /// Second end.
        b: [f64; 3],
    },
    /// `{"type": "triangle", "a": [..], "b": [..], "c": [..]}`
    Triangle {
        /// First corner.
        a: [f64; 3],
        /// Second corner.
        b: [f64; 3],
        /// Third corner.
        c: [f64; 3],
    },
    /// `{"type": "convex", "points": [[..], ...]}`
    Convex {
        /// The points whose hull is the shape.
        points: Vec<[f64; 3]>,
    },
    /// `{"type": "plane", "normal": [..], "offset": d}`: `n·x <= d`.
    Plane {
        /// Outward normal (need not be unit in the file).
        normal: [f64; 3],
        /// Offset along the normal, meters.
        offset: f64,
    },
}

/// A shape with its optional swept-sphere margin.
#[derive(Clone, Debug, PartialEq)]
pub struct GeometrySpec {
    /// The shape.
    pub shape: ShapeSpec,
    /// The margin, meters (0 when absent).
    pub margin: f64,
}

/// A pose: translation and unit quaternion `[w, x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseSpec {
    /// Translation, meters.
    pub translation: [f64; 3],
    /// Rotation, scalar first.
    pub rotation: [f64; 4],
}

impl Default for PoseSpec {
    fn default() -> Self {
        Self {
            translation: [0.0; 3],
            rotation: [1.0, 0.0, 0.0, 0.0],
        }
    }
}

/// A parsed query line.
#[derive(Clone, Debug, PartialEq)]
pub struct QuerySpec {
    /// The line's `id`, echoed back as it was written (any JSON value).
    pub id: Value,
    /// Shape A (the only shape of a ray or point query).
    pub a: GeometrySpec,
    /// Pose of A.
    pub pose_a: PoseSpec,
    /// What is asked, with its own fields.
    pub query: Query,
}

/// A line that could not be parsed: its `id` (when one could be read) and
/// the reason in words.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// The id, or `null`.
    pub id: Value,
    /// Why the line was refused.
    pub reason: String,
}

fn number(v: &Value, what: &str) -> Result<f64, String> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        Some(_) => Err(format!("{what} is not finite")),
        None => Err(format!("{what} must be a number")),
    }
}

fn field<'v>(obj: &'v Value, key: &str, what: &str) -> Result<&'v Value, String> {
    obj.get(key)
        .ok_or_else(|| format!("{what} is missing \"{key}\""))
}

fn vec3(v: &Value, what: &str) -> Result<[f64; 3], String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("{what} must be an array of 3 numbers"))?;
    if arr.len() != 3 {
        return Err(format!("{what} must have 3 numbers, has {}", arr.len()));
    }
    Ok([
        number(&arr[0], what)?,
        number(&arr[1], what)?,
        number(&arr[2], what)?,
    ])
}

fn num_field(obj: &Value, key: &str, what: &str) -> Result<f64, String> {
    number(field(obj, key, what)?, &format!("{what} \"{key}\""))
}

fn vec3_field(obj: &Value, key: &str, what: &str) -> Result<[f64; 3], String> {
    vec3(field(obj, key, what)?, &format!("{what} \"{key}\""))
}

/// Parses a SHAPE object (see the query format), with its margin.
pub fn parse_geometry(v: &Value, what: &str) -> Result<GeometrySpec, String> {
    if !v.is_object() {
        return Err(format!("{what} must be an object"));
    }
    let ty = field(v, "type", what)?
        .as_str()
        .ok_or_else(|| format!("{what} \"type\" must be a string"))?;
    let shape = match ty {
        "point" => ShapeSpec::Point,
        "sphere" => ShapeSpec::Sphere {
            radius: num_field(v, "radius", what)?,
        },
        "ellipsoid" => ShapeSpec::Ellipsoid {
            radii: vec3_field(v, "radii", what)?,
        },
        "box" => ShapeSpec::Box {
            half_extents: vec3_field(v, "half_extents", what)?,
        },
        "capsule" => ShapeSpec::Capsule {
            radius: num_field(v, "radius", what)?,
            half_length: num_field(v, "half_length", what)?,
        },
        "cylinder" => ShapeSpec::Cylinder {
            radius: num_field(v, "radius", what)?,
            half_length: num_field(v, "half_length", what)?,
        },
        "cone" => ShapeSpec::Cone {
            radius: num_field(v, "radius", what)?,
            half_length: num_field(v, "half_length", what)?,
        },
        "segment" => ShapeSpec::Segment {
            a: vec3_field(v, "a", what)?,
            b: vec3_field(v, "b", what)?,
        },
        "triangle" => ShapeSpec::Triangle {
            a: vec3_field(v, "a", what)?,
            b: vec3_field(v, "b", what)?,
            c: vec3_field(v, "c", what)?,
        },
        "convex" => {
            let pts = field(v, "points", what)?
                .as_array()
                .ok_or_else(|| format!("{what} \"points\" must be an array"))?;
            let points = pts
                .iter()
                .enumerate()
                .map(|(i, p)| vec3(p, &format!("{what} point {i}")))
                .collect::<Result<Vec<_>, _>>()?;
            ShapeSpec::Convex { points }
        }
        "plane" => ShapeSpec::Plane {
            normal: vec3_field(v, "normal", what)?,
            offset: num_field(v, "offset", what)?,
        },
        other => return Err(format!("{what} has unknown type \"{other}\"")),
    };
    let margin = match v.get("margin") {
        None | Some(Value::Null) => 0.0,
        Some(m) => number(m, &format!("{what} \"margin\""))?,
    };
    Ok(GeometrySpec { shape, margin })
}

/// Parses a POSE object; a missing pose is the identity.
pub fn parse_pose(v: Option<&Value>, what: &str) -> Result<PoseSpec, String> {
    let Some(v) = v else {
        return Ok(PoseSpec::default());
    };
    if v.is_null() {
        return Ok(PoseSpec::default());
    }
    if !v.is_object() {
        return Err(format!("{what} must be an object"));
    }
    let translation = match v.get("translation") {
        None => [0.0; 3],
        Some(t) => vec3(t, &format!("{what} \"translation\""))?,
    };
    let rotation = match v.get("rotation") {
        None => [1.0, 0.0, 0.0, 0.0],
        Some(r) => {
            let arr = r
                .as_array()
                .filter(|a| a.len() == 4)
                .ok_or_else(|| format!("{what} \"rotation\" must be [w, x, y, z]"))?;
            let mut q = [0.0; 4];
            for (i, c) in arr.iter().enumerate() {
                q[i] = number(c, &format!("{what} \"rotation\""))?;
            }
            q
        }
    };
    Ok(PoseSpec {
        translation,
        rotation,
    })
}

/// Parses the fields of a `"ray"` query: `origin` and `dir` (required,
/// finite, `dir` not zero), `max_toi` (finite and `>= 0`, infinity when
/// absent or `null`) and `solid` (a boolean, `true` when absent or `null`).
pub fn parse_ray(v: &Value) -> Result<RaySpec, String> {
    let origin = vec3(v.get("origin").ok_or("missing \"origin\"")?, "\"origin\"")?;
    let dir = vec3(v.get("dir").ok_or("missing \"dir\"")?, "\"dir\"")?;
    if dir == [0.0; 3] {
        return Err("\"dir\" must not be zero".into());
    }
    let max_toi = match v.get("max_toi") {
        None | Some(Value::Null) => f64::INFINITY,
        Some(m) => {
            let m = number(m, "\"max_toi\"")?;
            if m < 0.0 {
                return Err("\"max_toi\" must be >= 0".into());
            }
            m
        }
    };
    let solid = match v.get("solid") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("\"solid\" must be true or false".into()),
    };
    Ok(RaySpec {
        origin,
        dir,
        max_toi,
        solid,
    })
}

/// Parses one line of the query format.
pub fn parse_line(line: &str) -> Result<QuerySpec, ParseError> {
    let value: Value = serde_json::from_str(line).map_err(|e| ParseError {
        id: Value::Null,
        reason: format!("not JSON: {e}"),
    })?;
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let fail = |reason: String| ParseError {
        id: id.clone(),
        reason,
    };
    if !value.is_object() {
        return Err(fail("a query must be a JSON object".into()));
    }
    /// The question, before its fields are read.
    enum Asked {
        Pair(PairKind),
        Ray,
        Point,
        Cast,
    }
    let asked = match value.get("query") {
        None | Some(Value::Null) => Asked::Pair(PairKind::Distance),
        Some(Value::String(s)) => match s.as_str() {
            "distance" => Asked::Pair(PairKind::Distance),
            "intersect" => Asked::Pair(PairKind::Intersect),
            "penetration" => Asked::Pair(PairKind::Penetration),
            "manifold" => Asked::Pair(PairKind::Manifold),
            "ray" => Asked::Ray,
            "point" => Asked::Point,
            "cast" => Asked::Cast,
            other => return Err(fail(format!("unknown query \"{other}\""))),
        },
        Some(_) => return Err(fail("\"query\" must be a string".into())),
    };
    let a = parse_geometry(
        value
            .get("a")
            .ok_or_else(|| fail("missing shape \"a\"".into()))?,
        "shape a",
    )
    .map_err(fail)?;
    let parse_pose_a = || parse_pose(value.get("pose_a"), "pose_a").map_err(&fail);
    // Shape B and both poses, for the questions about two shapes (A's pose
    // after B's shape, so that a missing B is the error a line gets).
    let parse_b = || -> Result<(GeometrySpec, PoseSpec, PoseSpec), ParseError> {
        let b = value
            .get("b")
            .ok_or_else(|| fail("missing shape \"b\"".into()))?;
        let b = parse_geometry(b, "shape b").map_err(&fail)?;
        let pose_a = parse_pose_a()?;
        let pose_b = parse_pose(value.get("pose_b"), "pose_b").map_err(&fail)?;
        Ok((b, pose_a, pose_b))
    };
    let (pose_a, query) = match asked {
        Asked::Pair(kind) => {
            let (b, pose_a, pose_b) = parse_b()?;
            (pose_a, Query::Pair { kind, b, pose_b })
        }
        Asked::Cast => {
            let (b, pose_a, pose_b) = parse_b()?;
            let end = |key: &str, start: &PoseSpec| match value.get(key) {
                None | Some(Value::Null) => Ok(*start),
                Some(v) => parse_pose(Some(v), key).map_err(&fail),
            };
            let pose_a_end = end("pose_a_end", &pose_a)?;
            let pose_b_end = end("pose_b_end", &pose_b)?;
            let target_distance = match value.get("target_distance") {
                None | Some(Value::Null) => 0.0,
                Some(t) => {
                    let t = number(t, "\"target_distance\"").map_err(fail)?;
                    if t < 0.0 {
                        return Err(fail("\"target_distance\" must be >= 0".into()));
                    }
                    t
                }
            };
            let cast = CastSpec {
                b,
                pose_b,
                pose_a_end,
                pose_b_end,
                target_distance,
            };
            (pose_a, Query::Cast(cast))
        }
        Asked::Ray => {
            let pose_a = parse_pose_a()?;
            (pose_a, Query::Ray(parse_ray(&value).map_err(fail)?))
        }
        Asked::Point => {
            let pose_a = parse_pose_a()?;
            let point = value
                .get("point")
                .ok_or_else(|| fail("missing \"point\"".into()))?;
            (
                pose_a,
                Query::Point(vec3(point, "\"point\"").map_err(fail)?),
            )
        }
    };
    Ok(QuerySpec {
        id,
        a,
        pose_a,
        query,
    })
}
