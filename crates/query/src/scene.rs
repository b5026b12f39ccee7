//! The scene replay format: a whole scene and the steps it took, as one
//! JSON document, so that a failing collision step can be attached to a bug
//! report and replayed (`mink-query scene FILE`). The format is in
//! `SCENE-FORMAT.md` beside this crate's manifest.
//!
//! [`write_scene`] turns a [`SceneDesc`] and the inputs of its steps into
//! the document; [`parse_scene`] reads it back into plain `f64` data;
//! [`replay_scene`] builds the scene in the chosen scalar, steps it, and
//! writes one JSON line per step: the step's report and its contacts.

use crate::build::{build_pose, build_shape, Built};
use crate::spec::{parse_geometry, parse_pose, GeometrySpec, PoseSpec};
use mink::islands::{Link, NO_PARENT};
use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput, StepReport};
use mink::support::{HeightField, Iso3, Real, Support, Vec3};
use mink::{Collider, Method, Shape};
use serde_json::{json, Map, Value};

/// The `"format"` field of a scene document.
pub const SCENE_FORMAT: &str = "mink-scene";
/// The version this module writes and reads.
pub const SCENE_VERSION: u64 = 1;

/// A geometry's collider as written in a scene file, in f64.
#[derive(Clone, Debug, PartialEq)]
pub enum ColliderSpec {
    /// A shape of the query format (its `"margin"` must be 0: a scene's
    /// speculative distance is the geometry's `"contact_margin"`).
    Shape(GeometrySpec),
    /// `{"type": "height_field", "heights": [..], "nx", "ny", "dx", "dy", "thickness"}`.
    HeightField {
        /// Row-major heights, x fastest, meters.
        heights: Vec<f64>,
        /// Samples along x.
        nx: usize,
        /// Samples along y.
        ny: usize,
        /// Spacing along x, meters.
        dx: f64,
        /// Spacing along y, meters.
        dy: f64,
        /// Solid depth below the lowest sample, meters.
        thickness: f64,
    },
}

/// One geometry of a scene file.
#[derive(Clone, Debug, PartialEq)]
pub struct GeomSpec {
    /// Its collider.
    pub collider: ColliderSpec,
    /// The link it is attached to.
    pub link: u32,
    /// Its pose in the link's frame.
    pub pose: PoseSpec,
    /// MuJoCo's collision masks.
    pub contype: u32,
    /// MuJoCo's collision masks.
    pub conaffinity: u32,
    /// Speculative contact distance, meters.
    pub contact_margin: f64,
}

/// One step's input: link poses, dof velocities, external wake requests.
#[derive(Clone, Debug, PartialEq)]
pub struct StepSpec {
    /// World pose of every link.
    pub link_poses: Vec<PoseSpec>,
    /// Velocity of every dof.
    pub dof_vel: Vec<f64>,
    /// Links to wake before the step.
    pub wake: Vec<u32>,
}

/// A scene file, parsed (f64, nothing built yet).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneSpec {
    /// The geometries.
    pub geoms: Vec<GeomSpec>,
    /// The links, parents first.
    pub links: Vec<Link>,
    /// Length of every dof (1 translational, swept radius rotational), meters.
    pub dof_length: Vec<f64>,
    /// Equality constraints, as link pairs.
    pub constraints: Vec<[u32; 2]>,
    /// Most contact points per pair.
    pub max_points_per_pair: usize,
    /// The narrow phase's penetration method.
    pub method: Method,
    /// The steps to replay.
    pub steps: Vec<StepSpec>,
}

fn pose_json<R: Real>(p: &Iso3<R>) -> Value {
    let q = p.quat();
    let t = p.translation;
    json!({
        "translation": [t.x.to_f64(), t.y.to_f64(), t.z.to_f64()],
        "rotation": [q.w.to_f64(), q.x.to_f64(), q.y.to_f64(), q.z.to_f64()],
    })
}

fn vec_json<R: Real>(v: Vec3<R>) -> Value {
    json!([v.x.to_f64(), v.y.to_f64(), v.z.to_f64()])
}

/// A shape in the query format, or why it has no form there.
fn shape_json<R: Real, U: Support<R>>(shape: &Shape<'_, R, U>) -> Result<Value, String> {
    let f = |x: R| x.to_f64();
    Ok(match shape {
        Shape::Point(_) => json!({"type": "point"}),
        Shape::Sphere(s) => json!({"type": "sphere", "radius": f(s.radius())}),
        Shape::Ellipsoid(s) => json!({"type": "ellipsoid", "radii": vec_json(s.radii())}),
        Shape::Cuboid(s) => json!({"type": "box", "half_extents": vec_json(s.half_extents())}),
        Shape::Capsule(s) => {
            json!({"type": "capsule", "radius": f(s.radius()), "half_length": f(s.half_length())})
        }
        Shape::Cylinder(s) => {
            json!({"type": "cylinder", "radius": f(s.radius()), "half_length": f(s.half_length())})
        }
        Shape::Cone(s) => {
            json!({"type": "cone", "radius": f(s.radius()), "half_length": f(s.half_length())})
        }
        Shape::Segment(s) => json!({"type": "segment", "a": vec_json(s.a()), "b": vec_json(s.b())}),
        Shape::Triangle(s) => {
            let [a, b, c] = s.vertices();
            json!({"type": "triangle", "a": vec_json(a), "b": vec_json(b), "c": vec_json(c)})
        }
        Shape::Hull(h) => {
            let points: Vec<Value> = h.vertices().iter().map(|p| vec_json(*p)).collect();
            json!({"type": "convex", "points": points})
        }
        Shape::HalfSpace(h) => {
            json!({"type": "plane", "normal": vec_json(h.normal()), "offset": f(h.offset())})
        }
        Shape::RoundedCuboid(_) | Shape::TerrainPrism(_) | Shape::Custom(_) => {
            return Err(format!(
                "a {} has no form in the scene format",
                shape.name()
            ));
        }
    })
}

fn collider_json<R: Real, U: Support<R>>(c: &Collider<'_, R, U>) -> Result<Value, String> {
    match c {
        Collider::Convex(shape) => shape_json(shape),
        Collider::HeightField(h) => Ok(json!({
            "type": "height_field",
            "heights": h.heights().iter().map(|x| x.to_f64()).collect::<Vec<_>>(),
            "nx": h.nx(), "ny": h.ny(), "dx": h.dx().to_f64(), "dy": h.dy().to_f64(),
            "thickness": h.thickness().to_f64(),
        })),
        // A mesh and its field (or a convex shape's field) would need the
        // triangles and the samples, or the field's build options: not in
        // the format yet, so refused rather than dropped or changed.
        Collider::Mesh(_) => Err("a triangle mesh has no form in the scene format".into()),
        Collider::ConvexWithField(shape, _) => Err(format!(
            "a {} with a signed distance field has no form in the scene format",
            shape.name()
        )),
    }
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Auto => "auto",
        Method::Gjk => "gjk",
        Method::Epa => "epa",
        Method::Mpr => "mpr",
    }
}

/// The scene document of `desc` stepped with `config` through `steps`
/// (one [`SceneInput`] per step), pretty-printed JSON. Fails, naming the
/// geometry, for a collider the format cannot hold (a rounded box, a
/// terrain prism, a user's own shape, a triangle mesh, a convex shape
/// carrying a signed distance field).
pub fn write_scene<R: Real, U: Support<R>>(
    desc: &SceneDesc<'_, R, U>,
    config: &SceneConfig<R>,
    steps: &[SceneInput<'_, R>],
) -> Result<String, String> {
    let mut geoms = Vec::new();
    for (i, g) in desc.geoms().iter().enumerate() {
        let collider = collider_json(&g.collider).map_err(|e| format!("geometry {i}: {e}"))?;
        geoms.push(json!({
            "collider": collider, "link": g.link, "pose": pose_json(&g.local_pose),
            "contype": g.contype, "conaffinity": g.conaffinity,
            "contact_margin": g.margin.to_f64(),
        }));
    }
    let links: Vec<Value> = desc
        .links()
        .iter()
        .map(|l| {
            let parent = if l.parent == NO_PARENT { Value::Null } else { json!(l.parent) };
            json!({"parent": parent, "fixed": l.fixed, "dof_start": l.dof_start, "dof_count": l.dof_count})
        })
        .collect();
    let steps: Vec<Value> = steps
        .iter()
        .map(|s| {
            json!({
                "link_poses": s.link_poses.iter().map(pose_json).collect::<Vec<_>>(),
                "dof_vel": s.dof_vel.iter().map(|x| x.to_f64()).collect::<Vec<_>>(),
                "wake": s.wake,
            })
        })
        .collect();
    let doc = json!({
        "format": SCENE_FORMAT, "version": SCENE_VERSION,
        "geoms": geoms, "links": links,
        "dof_length": desc.topology().dof_length().iter().map(|x| x.to_f64()).collect::<Vec<_>>(),
        "constraints": desc.constraints(),
        "config": {"max_points_per_pair": config.max_points_per_pair, "method": method_name(config.method)},
        "steps": steps,
    });
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

fn field<'v>(m: &'v Map<String, Value>, key: &str, what: &str) -> Result<&'v Value, String> {
    m.get(key)
        .ok_or_else(|| format!("{what}: missing \"{key}\""))
}

fn number(v: &Value, what: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{what} must be a finite number"))
}

fn index(v: &Value, what: &str) -> Result<u32, String> {
    v.as_u64()
        .and_then(|x| u32::try_from(x).ok())
        .ok_or_else(|| format!("{what} must be an integer in 0..2^32"))
}

fn array<'v>(v: &'v Value, what: &str) -> Result<&'v Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what} must be an array"))
}

fn object<'v>(v: &'v Value, what: &str) -> Result<&'v Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{what} must be an object"))
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, String> {
    array(v, what)?.iter().map(|x| number(x, what)).collect()
}

fn parse_collider(v: &Value, what: &str) -> Result<ColliderSpec, String> {
    let m = object(v, what)?;
    if m.get("type").and_then(Value::as_str) != Some("height_field") {
        let g = parse_geometry(v, what)?;
        if g.margin != 0.0 {
            return Err(format!(
                "{what}: a scene geometry's speculative distance is \"contact_margin\"; \"margin\" must be 0"
            ));
        }
        return Ok(ColliderSpec::Shape(g));
    }
    let count = |k: &str| -> Result<usize, String> {
        field(m, k, what)?
            .as_u64()
            .map(|x| x as usize)
            .ok_or_else(|| format!("{what} \"{k}\" must be a count"))
    };
    Ok(ColliderSpec::HeightField {
        heights: numbers(field(m, "heights", what)?, what)?,
        nx: count("nx")?,
        ny: count("ny")?,
        dx: number(field(m, "dx", what)?, what)?,
        dy: number(field(m, "dy", what)?, what)?,
        thickness: number(field(m, "thickness", what)?, what)?,
    })
}

/// Reads a scene document. Never panics: a missing or ill-typed field is
/// an error naming it. Shapes are not built yet (see [`replay_scene`]).
pub fn parse_scene(text: &str) -> Result<SceneSpec, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let top = object(&doc, "the scene")?;
    if top.get("format").and_then(Value::as_str) != Some(SCENE_FORMAT) {
        return Err(format!("\"format\" must be \"{SCENE_FORMAT}\""));
    }
    if top.get("version").and_then(Value::as_u64) != Some(SCENE_VERSION) {
        return Err(format!("\"version\" must be {SCENE_VERSION}"));
    }
    let mut geoms = Vec::new();
    for (i, g) in array(field(top, "geoms", "the scene")?, "\"geoms\"")?
        .iter()
        .enumerate()
    {
        let what = format!("geometry {i}");
        let m = object(g, &what)?;
        let mask = |k: &str| {
            m.get(k)
                .map_or(Ok(1), |v| index(v, &format!("{what} \"{k}\"")))
        };
        geoms.push(GeomSpec {
            collider: parse_collider(field(m, "collider", &what)?, &what)?,
            link: index(field(m, "link", &what)?, &format!("{what} \"link\""))?,
            pose: parse_pose(m.get("pose"), &format!("{what} \"pose\""))?,
            contype: mask("contype")?,
            conaffinity: mask("conaffinity")?,
            contact_margin: m
                .get("contact_margin")
                .map_or(Ok(0.0), |v| number(v, &what))?,
        });
    }
    let mut links = Vec::new();
    for (i, l) in array(field(top, "links", "the scene")?, "\"links\"")?
        .iter()
        .enumerate()
    {
        let what = format!("link {i}");
        let m = object(l, &what)?;
        let parent = match m.get("parent") {
            None | Some(Value::Null) => NO_PARENT,
            Some(p) => index(p, &format!("{what} \"parent\""))?,
        };
        links.push(Link {
            parent,
            fixed: m.get("fixed").and_then(Value::as_bool).unwrap_or(false),
            dof_start: index(field(m, "dof_start", &what)?, &what)?,
            dof_count: index(field(m, "dof_count", &what)?, &what)?,
        });
    }
    let mut constraints = Vec::new();
    if let Some(c) = top.get("constraints") {
        for pair in array(c, "\"constraints\"")? {
            let p = array(pair, "a constraint")?;
            if p.len() != 2 {
                return Err("a constraint is a pair of links".into());
            }
            constraints.push([index(&p[0], "a constraint")?, index(&p[1], "a constraint")?]);
        }
    }
    let config = top.get("config").and_then(Value::as_object);
    let method = match config.and_then(|c| c.get("method")).and_then(Value::as_str) {
        None | Some("auto") => Method::Auto,
        Some("gjk") => Method::Gjk,
        Some("epa") => Method::Epa,
        Some("mpr") => Method::Mpr,
        Some(other) => return Err(format!("unknown method \"{other}\"")),
    };
    let max_points_per_pair = config.and_then(|c| c.get("max_points_per_pair")).map_or(
        Ok(SceneConfig::<f64>::new().max_points_per_pair),
        |v| {
            v.as_u64()
                .map(|x| x as usize)
                .ok_or("\"max_points_per_pair\" must be a count")
        },
    )?;
    let mut steps = Vec::new();
    for (k, s) in array(field(top, "steps", "the scene")?, "\"steps\"")?
        .iter()
        .enumerate()
    {
        let what = format!("step {k}");
        let m = object(s, &what)?;
        let link_poses = array(field(m, "link_poses", &what)?, &what)?
            .iter()
            .map(|p| parse_pose(Some(p), &format!("{what} link pose")))
            .collect::<Result<Vec<_>, _>>()?;
        let wake = match m.get("wake") {
            None => Vec::new(),
            Some(w) => array(w, &what)?
                .iter()
                .map(|x| index(x, &what))
                .collect::<Result<_, _>>()?,
        };
        steps.push(StepSpec {
            link_poses,
            dof_vel: m
                .get("dof_vel")
                .map_or(Ok(Vec::new()), |v| numbers(v, &what))?,
            wake,
        });
    }
    Ok(SceneSpec {
        geoms,
        links,
        dof_length: numbers(field(top, "dof_length", "the scene")?, "\"dof_length\"")?,
        constraints,
        max_points_per_pair,
        method,
        steps,
    })
}

/// A collider's data, owned, that a [`Collider`] borrows.
enum Owned<R: Real> {
    Shape(Built<R>),
    /// Heights, then nx, ny, dx, dy, thickness.
    HeightField(Vec<R>, usize, usize, R, R, R),
}

fn report_json(r: &StepReport) -> Value {
    json!({
        "broadphase_pairs": r.broadphase_pairs, "pairs_in_contact": r.pairs_in_contact,
        "contacts": r.contacts, "awake_geoms": r.awake_geoms, "asleep_geoms": r.asleep_geoms,
        "woken_links": r.woken_links, "islands": r.islands, "awake_links": r.awake_links,
        "sleeping_islands": r.sleeping_islands,
    })
}

/// Builds `spec` in scalar `R` and steps it through its steps: one JSON
/// line per step, `{"step": k, "ok": true, "report": {..}, "contacts":
/// [{"geom_a", "geom_b", "link_a", "link_b", "position", "normal",
/// "depth"}, ..]}`, or `{"step": k, "ok": false, "error": ".."}` for a step
/// that failed (the replay goes on with the next). A scene that cannot be
/// built is one error.
pub fn replay_scene<R: Real>(spec: &SceneSpec) -> Result<Vec<String>, String> {
    let mut owned = Vec::with_capacity(spec.geoms.len());
    for (i, g) in spec.geoms.iter().enumerate() {
        let what = format!("geometry {i}");
        owned.push(match &g.collider {
            ColliderSpec::Shape(s) => Owned::Shape(build_shape::<R>(s, &what)?),
            ColliderSpec::HeightField {
                heights,
                nx,
                ny,
                dx,
                dy,
                thickness,
            } => Owned::HeightField(
                heights.iter().map(|h| R::lit(*h)).collect(),
                *nx,
                *ny,
                R::lit(*dx),
                R::lit(*dy),
                R::lit(*thickness),
            ),
        });
    }
    let mut geoms = Vec::with_capacity(spec.geoms.len());
    for (i, (g, o)) in spec.geoms.iter().zip(&owned).enumerate() {
        let what = format!("geometry {i}");
        let collider: Collider<'_, R> = match o {
            Owned::Shape(b) => Collider::Convex(b.shape()),
            Owned::HeightField(h, nx, ny, dx, dy, thickness) => Collider::HeightField(
                HeightField::new(h, *nx, *ny, *dx, *dy, *thickness)
                    .map_err(|e| format!("{what}: {e}"))?,
            ),
        };
        geoms.push(
            GeomDesc::new(collider, g.link)
                .with_pose(build_pose(&g.pose, &what)?)
                .with_masks(g.contype, g.conaffinity)
                .with_margin(R::lit(g.contact_margin)),
        );
    }
    let dof_length: Vec<R> = spec.dof_length.iter().map(|x| R::lit(*x)).collect();
    let desc = SceneDesc::new(&geoms, &spec.links, &dof_length, &spec.constraints)
        .map_err(|e| format!("scene: {e}"))?;
    let mut config = SceneConfig::new();
    config.max_points_per_pair = spec.max_points_per_pair;
    config.method = spec.method;
    let mut scene = SceneBuf::new(desc, config).map_err(|e| format!("scene: {e}"))?;
    let mut lines = Vec::with_capacity(spec.steps.len());
    for (k, step) in spec.steps.iter().enumerate() {
        let poses: Result<Vec<Iso3<R>>, String> = step
            .link_poses
            .iter()
            .map(|p| build_pose(p, &format!("step {k} link pose")))
            .collect();
        let outcome = poses.and_then(|poses| {
            let vel: Vec<R> = step.dof_vel.iter().map(|x| R::lit(*x)).collect();
            let mut input = SceneInput::new(&poses, &vel);
            input.wake = &step.wake;
            scene.step(&input).map_err(|e| e.to_string())
        });
        lines.push(
            match outcome {
                Ok(report) => {
                    let contacts: Vec<Value> = scene
                        .contacts()
                        .iter()
                        .map(|c| {
                            json!({
                                "geom_a": c.geom_a, "geom_b": c.geom_b,
                                "link_a": c.link_a, "link_b": c.link_b,
                                "position": vec_json(c.position), "normal": vec_json(c.normal),
                                "depth": c.depth.to_f64(),
                            })
                        })
                        .collect();
                    json!({"step": k, "ok": true, "report": report_json(&report), "contacts": contacts})
                }
                Err(e) => json!({"step": k, "ok": false, "error": e}),
            }
            .to_string(),
        );
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mink::sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
    use mink::support::Cuboid;

    /// A mesh collider (or a convex one carrying a field) is refused with
    /// the geometry named, never written without it.
    #[test]
    fn mesh_colliders_are_refused_by_name() {
        let cube = Cuboid::new(Vec3::splat(0.5)).unwrap();
        let mesh = TriMesh::<f64>::from_cuboid(&cube).unwrap();
        let field = OwnedSdf::build(&mesh, SdfOptions::new(8, 0.1)).unwrap();
        let body = SdfBody::new(mesh.view(), field.view());
        let links = [Link::world(), Link::free(0, 6)];
        let dof_length = [1.0; 6];
        let steps = [SceneInput::new(&[Iso3::IDENTITY; 2], &[0.0; 6])];
        let colliders: [Collider<'_, f64>; 2] = [
            Collider::Mesh(body),
            Collider::ConvexWithField(Shape::from(cube), body),
        ];
        for (collider, what) in colliders.into_iter().zip(["triangle mesh", "box with"]) {
            let geoms = [
                GeomDesc::new(Shape::from(cube), 0),
                GeomDesc::new(collider, 1),
            ];
            let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
            let err = write_scene(&desc, &SceneConfig::new(), &steps).unwrap_err();
            assert!(err.starts_with("geometry 1: "), "{err}");
            assert!(err.contains(what), "{err}");
        }
    }
}
