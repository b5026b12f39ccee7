#!/usr/bin/env python3
"""Generates crates/query/tests/data/coal_all_pairs.jsonl: Coal's signed
distances, normals and witness points for every unordered pair of shape types
of the query format (/work/shared/query-format.md): point, sphere, ellipsoid,
box, capsule, cylinder, cone, segment, triangle, convex, plane, each also with
a swept-sphere margin, in four regimes (separated, touching, shallow, deep).

It reuses the machinery of crates/gjk/tests/data/gen_coal_reference.py (Coal
with tightened tolerances, poses drawn there, bisection to the regime, and the
independent certification of every answer through the shapes' support
functions) and adds the shapes that script lacks. Half-space pairs are
answered by Coal too and certified in closed form: the signed distance of a
shape B to the half-space n.x <= d is -h_B(-n) - d.

Coal has no distance function for its triangle primitive, so a triangle is
handed to Coal as a two-sided flat polytope of its three vertices. Two
half-spaces have no finite distance and are left out. The count per pair is
printed on stderr.

Run: python3 gen_coal_all_pairs.py [cases_per_pair_and_regime] > coal_all_pairs.jsonl
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../gjk/tests/data"))
import gen_coal_reference as base  # noqa: E402
import coal  # noqa: E402

rng = np.random.default_rng(20261203)
base.rng = rng
KINDS = ["point", "sphere", "ellipsoid", "box", "capsule", "cylinder", "cone",
         "segment", "triangle", "convex", "plane"]
PRIMITIVES = {"sphere", "ellipsoid", "box", "capsule", "cylinder", "cone"}


def random_shape(kind):
    s = lambda: float(rng.uniform(0.2, 1.5))
    if kind in PRIMITIVES:
        sh = base.random_shape(kind)
    elif kind == "point":
        sh = {"type": "point"}
    elif kind == "segment":
        h = s()
        sh = {"type": "segment", "a": [0.0, 0.0, -h], "b": [0.0, 0.0, h]}
    elif kind == "triangle":
        pts = rng.uniform(-1.2, 1.2, size=(3, 3))
        while np.linalg.norm(np.cross(pts[1] - pts[0], pts[2] - pts[0])) < 0.3:
            pts = rng.uniform(-1.2, 1.2, size=(3, 3))
        sh = {"type": "triangle", "a": list(map(float, pts[0])),
              "b": list(map(float, pts[1])), "c": list(map(float, pts[2]))}
    elif kind == "convex":
        n = int(rng.integers(8, 33))
        pts = rng.normal(size=(n, 3))
        pts /= np.linalg.norm(pts, axis=1)[:, None]
        pts *= np.array([s(), s(), s()])
        sh = {"type": "convex", "points": [list(map(float, p)) for p in pts]}
    else:
        n = rng.normal(size=3)
        n /= np.linalg.norm(n)
        sh = {"type": "plane", "normal": list(map(float, n)), "offset": float(rng.uniform(-0.5, 0.5))}
    if kind != "plane" and rng.uniform() < 0.3:
        sh["margin"] = float(rng.uniform(0.01, 0.3))
    return sh


def support(sh, d):
    t = sh["type"]
    m = sh.get("margin", 0.0)
    if t in PRIMITIVES:
        p = primitive_support(sh, d)
    elif t == "point":
        p = np.zeros(3)
    elif t in ("segment", "triangle"):
        pts = [np.array(sh[k]) for k in ("a", "b", "c") if k in sh]
        p = max(pts, key=lambda q: float(np.dot(q, d)))
    elif t == "convex":
        pts = np.array(sh["points"])
        p = pts[int(np.argmax(pts @ d))]
    else:
        raise ValueError("a half-space has no support point")
    return p + m * d


primitive_support = base.support
base.support = support  # base.certify measures through this module's shapes


def coal_shape(sh):
    t = sh["type"]
    if t in PRIMITIVES:
        c = base.coal_shape(sh)
    elif t == "point":
        c = coal.Sphere(0.0)
    elif t == "segment":
        c = coal.Capsule(0.0, 2 * sh["b"][2])
    elif t == "triangle":
        # Coal's TriangleP has no distance function: a two-sided flat
        # polytope of the three vertices answers instead.
        v = coal.StdVec_Vec3s()
        for k in ("a", "b", "c"):
            v.append(np.array(sh[k]))
        faces = coal.StdVec_Triangle()
        faces.append(coal.Triangle(0, 1, 2))
        faces.append(coal.Triangle(0, 2, 1))
        c = coal.Convex(v, faces)
    elif t == "convex":
        v = coal.StdVec_Vec3s()
        for p in sh["points"]:
            v.append(np.array(p))
        c = coal.Convex.convexHull(v, False, "")
    else:
        c = coal.Halfspace(np.array(sh["normal"]), sh["offset"])
    if "margin" in sh:
        c.setSweptSphereRadius(sh["margin"])
    return c


def h(sh, R, t, n):
    return float(np.dot(n, R @ support(sh, R.T @ n) + t))


def plane_distance(plane, Rp, tp, other, Ro, to):
    """Signed distance and normal (plane towards other) in closed form."""
    n = Rp @ np.array(plane["normal"])
    d = plane["offset"] + float(np.dot(n, tp))
    return -h(other, Ro, to, -n) - d, n


def certify(a, Ra, ta, b, Rb, tb, d, p1, p2, n):
    if not np.all(np.isfinite([d, *p1, *p2, *n])) or abs(np.linalg.norm(n) - 1) > 1e-6:
        return False
    if a["type"] == "plane" or b["type"] == "plane":
        if a["type"] == "plane":
            ref, nref = plane_distance(a, Ra, ta, b, Rb, tb)
        else:
            ref, nref = plane_distance(b, Rb, tb, a, Ra, ta)
            nref = -nref
        return abs(ref - d) <= base.CERT_TOL and np.linalg.norm(n - nref) <= 1e-6
    return base.certify(a, Ra, ta, b, Rb, tb, d, p1, p2, n)


def size(sh):
    if sh["type"] == "plane":
        return 1.0
    return max(0.05, min(h(sh, np.eye(3), np.zeros(3), m) for m in np.eye(3)))


def make_case(kind_a, kind_b, regime):
    a, b = random_shape(kind_a), random_shape(kind_b)
    Ra, qa = base.random_rotation()
    Rb, qb = base.random_rotation()
    ta = rng.uniform(-2, 2, size=3)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    if a["type"] == "plane":
        # Move B out of the half-space along its normal, whatever u was.
        u = Ra @ np.array(a["normal"])
    elif b["type"] == "plane":
        u = -(Rb @ np.array(b["normal"]))
    ca, cb = coal_shape(a), coal_shape(b)
    dist_at = lambda s: base.coal_distance(ca, Ra, ta, cb, Rb, ta + s * u)[0]
    lo, hi = -10.0 if "plane" in (a["type"], b["type"]) else 0.0, 10.0
    if regime == "separated":
        target = float(rng.uniform(0.01, 1.0))
    elif regime == "touching":
        target = float(rng.uniform(-1e-6, 1e-6))
    elif regime == "shallow":
        target = -float(rng.uniform(1e-4, 0.05))
    else:
        target = -float(rng.uniform(0.1, 0.6)) * min(size(a), size(b)) - 0.05
    if dist_at(lo) > target or dist_at(hi) < target:
        return None
    for _ in range(80):
        mid = (lo + hi) / 2
        if dist_at(mid) < target:
            lo = mid
        else:
            hi = mid
    tb = ta + (lo + hi) / 2 * u
    d, p1, p2, n = base.coal_distance(ca, Ra, ta, cb, Rb, tb)
    if regime == "deep" and d > -0.05:
        return None
    if not certify(a, Ra, ta, b, Rb, tb, d, p1, p2, n):
        return "uncertified"
    pose = lambda q, t: {"translation": [float(x) for x in t], "rotation": [float(x) for x in q]}
    return {
        "a": a, "pose_a": pose(qa, ta), "b": b, "pose_b": pose(qb, tb),
        "query": "distance", "regime": regime,
        "expected": {"distance": float(d), "p_a": [float(x) for x in p1],
                     "p_b": [float(x) for x in p2], "normal": [float(x) for x in n]},
    }


def main():
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    uid = 0
    for i, ka in enumerate(KINDS):
        for kb in KINDS[i:]:
            made = dropped = unsupported = 0
            for regime in ["separated", "touching", "shallow", "deep"]:
                count = tries = 0
                while count < per and tries < 20 * per:
                    tries += 1
                    try:
                        c = make_case(ka, kb, regime)
                    except ValueError:
                        unsupported += 1
                        break
                    if c is None:
                        continue
                    if c == "uncertified":
                        dropped += 1
                        continue
                    print(json.dumps({"id": uid, **c}))
                    uid += 1
                    count += 1
                made += count
            print(f"{ka}-{kb}: {made} written, {dropped} uncertified"
                  + (", not answered by Coal" if unsupported else ""), file=sys.stderr)
    print(f"{uid} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
