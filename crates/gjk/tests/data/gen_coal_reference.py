#!/usr/bin/env python3
"""Generates crates/gjk/tests/data/coal_reference.jsonl: signed distances,
normals and witness points from Coal (pip install coal numpy), for every
unordered pair of box, sphere, capsule, cylinder, cone, ellipsoid, in four
regimes: separated, touching (|distance| <= 1e-6), shallow and deep overlap.

Coal runs with tightened tolerances (GJK 1e-9, EPA 1e-8). Each answer is then
certified independently of Coal before it is written, through the shapes'
analytic support functions h(n) = max over the shape of n.x:
  - separated: the gap between the supporting planes along Coal's normal,
    -h_B(-n) - h_A(n), must equal the distance (a lower bound for any n,
    equal to the distance only for the right normal), and |p2 - p1| too;
  - overlapping: the overlap along the normal, h_A(n) + h_B(-n), must equal
    the depth, and a direction search must find no smaller overlap.
Cases that fail certification are dropped (their count is printed).

Lines follow the query format (/work/shared/query-format.md): shapes, poses
with quaternions [w, x, y, z], plus the reference answer in "expected".

Run: python3 gen_coal_reference.py [cases_per_pair_and_regime] > coal_reference.jsonl
"""
import json
import sys

import coal
import numpy as np

rng = np.random.default_rng(20261202)
KINDS = ["box", "sphere", "capsule", "cylinder", "cone", "ellipsoid"]
GJK_TOL = 1e-9
EPA_TOL = 1e-8
CERT_TOL = 1e-7  # certification tolerance, meters (shapes of size ~1)


def random_shape(kind):
    s = lambda: float(rng.uniform(0.2, 1.5))
    if kind == "box":
        return {"type": "box", "half_extents": [s(), s(), s()]}
    if kind == "sphere":
        return {"type": "sphere", "radius": s()}
    if kind == "ellipsoid":
        return {"type": "ellipsoid", "radii": [s(), s(), s()]}
    return {"type": kind, "radius": s(), "half_length": s()}


def coal_shape(sh):
    t = sh["type"]
    if t == "box":
        return coal.Box(*[2 * h for h in sh["half_extents"]])
    if t == "sphere":
        return coal.Sphere(sh["radius"])
    if t == "ellipsoid":
        return coal.Ellipsoid(*sh["radii"])
    full = 2 * sh["half_length"]
    return {"capsule": coal.Capsule, "cylinder": coal.Cylinder, "cone": coal.Cone}[t](
        sh["radius"], full
    )


def support(sh, d):
    """Support point of the full shape along d (local frame, d unit)."""
    t = sh["type"]
    if t == "box":
        return np.sign(d + (d == 0)) * np.array(sh["half_extents"])
    if t == "sphere":
        return sh["radius"] * d
    if t == "ellipsoid":
        r = np.array(sh["radii"])
        q = r * r * d
        return q / np.sqrt(np.dot(d, q))
    r, h = sh["radius"], sh["half_length"]
    radial = np.array([d[0], d[1], 0.0])
    rn = np.linalg.norm(radial)
    u = radial / rn if rn > 0 else np.zeros(3)
    if t == "capsule":
        return np.array([0, 0, h if d[2] > 0 else -h]) + r * d
    if t == "cylinder":
        return r * u + np.array([0, 0, h if d[2] > 0 else -h])
    # cone: apex at +h, base disc at -h
    apex = np.array([0, 0, h])
    rim = r * u + np.array([0, 0, -h])
    return apex if np.dot(apex, d) >= np.dot(rim, d) else rim


def h(sh, R, t, n):
    return float(np.dot(n, R @ support(sh, R.T @ n) + t))


def quat_wxyz(R):
    w = np.sqrt(max(0.0, 1 + R[0, 0] + R[1, 1] + R[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + R[0, 0] - R[1, 1] - R[2, 2])) / 2, R[2, 1] - R[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] + R[1, 1] - R[2, 2])) / 2, R[0, 2] - R[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] - R[1, 1] + R[2, 2])) / 2, R[1, 0] - R[0, 1])
    q = np.array([w, x, y, z])
    return q / np.linalg.norm(q)


def rot_from_quat(q):
    w, x, y, z = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_rotation():
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    # Round-trip through the stored quaternion so the file is exact.
    return rot_from_quat(q), q


def coal_distance(ca, Ra, ta, cb, Rb, tb):
    req = coal.DistanceRequest()
    req.gjk_tolerance = GJK_TOL
    req.epa_tolerance = EPA_TOL
    req.gjk_max_iterations = 1000
    req.epa_max_iterations = 1000
    req.enable_signed_distance = True
    res = coal.DistanceResult()
    d = coal.distance(ca, coal.Transform3s(Ra, ta), cb, coal.Transform3s(Rb, tb), req, res)
    return d, np.array(res.getNearestPoint1()), np.array(res.getNearestPoint2()), np.array(res.normal)


def fib_dirs(n):
    i = np.arange(n) + 0.5
    z = 1 - 2 * i / n
    r = np.sqrt(1 - z * z)
    t = np.pi * (3 - np.sqrt(5)) * i
    return np.stack([r * np.cos(t), r * np.sin(t), z], axis=1)


DIRS = fib_dirs(600)


def certify(a, Ra, ta, b, Rb, tb, d, p1, p2, n):
    if not np.all(np.isfinite([d, *p1, *p2, *n])) or abs(np.linalg.norm(n) - 1) > 1e-6:
        return False
    if d >= 0:
        gap = -h(b, Rb, tb, -n) - h(a, Ra, ta, n)
        return abs(gap - d) <= CERT_TOL and abs(np.linalg.norm(p2 - p1) - d) <= CERT_TOL
    depth = -d
    ov = lambda m: h(a, Ra, ta, m) + h(b, Rb, tb, -m)
    if abs(ov(n) - depth) > CERT_TOL:
        return False
    best, bd = ov(n), n
    for m in DIRS:
        o = ov(m)
        if o < best:
            best, bd = o, m
    step = 0.2
    while step > 1e-8:
        improved = False
        for _ in range(16):
            m = bd + rng.normal(size=3) * step
            m /= np.linalg.norm(m)
            o = ov(m)
            if o < best:
                best, bd, improved = o, m, True
        if not improved:
            step *= 0.5
    return best >= depth - CERT_TOL


def make_case(kind_a, kind_b, regime):
    a, b = random_shape(kind_a), random_shape(kind_b)
    Ra, qa = random_rotation()
    Rb, qb = random_rotation()
    ta = rng.uniform(-2, 2, size=3)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    ca, cb = coal_shape(a), coal_shape(b)
    dist_at = lambda s: coal_distance(ca, Ra, ta, cb, Rb, ta + s * u)[0]
    # Bisect on the offset s along u for the regime's target distance.
    lo, hi = 0.0, 10.0
    if regime == "separated":
        target = float(rng.uniform(0.01, 1.0))
    elif regime == "touching":
        target = float(rng.uniform(-1e-6, 1e-6))
    elif regime == "shallow":
        target = -float(rng.uniform(1e-4, 0.05))
    else:
        target = None
    if target is None:
        s = float(rng.uniform(0.0, 0.5)) * dist_at_zero_scale(a, b)
    else:
        if dist_at(lo) > target:
            return None
        for _ in range(80):
            mid = (lo + hi) / 2
            if dist_at(mid) < target:
                lo = mid
            else:
                hi = mid
        s = (lo + hi) / 2
    tb = ta + s * u
    d, p1, p2, n = coal_distance(ca, Ra, ta, cb, Rb, tb)
    if regime == "deep" and d > -0.05:
        return None
    if not certify(a, Ra, ta, b, Rb, tb, d, p1, p2, n):
        return "uncertified"
    pose = lambda q, t: {"translation": [float(x) for x in t], "rotation": [float(x) for x in q]}
    return {
        "a": a,
        "pose_a": pose(qa, ta),
        "b": b,
        "pose_b": pose(qb, tb),
        "query": "distance",
        "regime": regime,
        "expected": {
            "distance": float(d),
            "p_a": [float(x) for x in p1],
            "p_b": [float(x) for x in p2],
            "normal": [float(x) for x in n],
        },
    }


def dist_at_zero_scale(a, b):
    size = lambda sh: max(h(sh, np.eye(3), np.zeros(3), m) for m in np.eye(3))
    return min(size(a), size(b))


def main():
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    dropped = 0
    uid = 0
    for i, ka in enumerate(KINDS):
        for kb in KINDS[i:]:
            for regime in ["separated", "touching", "shallow", "deep"]:
                made = 0
                tries = 0
                while made < per and tries < 10 * per:
                    tries += 1
                    c = make_case(ka, kb, regime)
                    if c is None:
                        continue
                    if c == "uncertified":
                        dropped += 1
                        continue
                    c = {"id": uid, **c}
                    uid += 1
                    made += 1
                    print(json.dumps(c))
    print(f"{uid} cases written, {dropped} dropped by certification", file=sys.stderr)


if __name__ == "__main__":
    main()
