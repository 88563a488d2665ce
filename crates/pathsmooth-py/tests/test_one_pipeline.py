"""One planner (issue 39): `Pipeline(mesh, …)` on a layered navmesh (`SurfaceMesh`).

`plan3` (3D ends) of a pipeline reused across plans gives what a fresh pipeline gives for
each, array for array (its scratch carries nothing from one plan to the next), and is
checked on its own too: its ends lie in their polygons
in plan view (a point-in-polygon test of this file's) at a height within the polygon's
corner heights. `plan` (2D ends) is the plan-view projection of `plan3` from the points
`floor_point` locates; a point over two floors, mixed 2D/3D ends and bad points raise
`pathsmooth.Error` (or `TypeError` for a non-numeric dtype), never a crash. The meshes: the
Recast bakes of `crates/pathsmooth/tests/data/navmesh` (dungeon, nav_test), the corpus
files `test_surface_files.py` plans on, and the small meshes of the existing tests.
"""

import threading
from pathlib import Path

import numpy as np
import pytest

import pathsmooth
from pathsmooth import Error, GridWorld, Pipeline, SurfaceMesh
from test_surface_files import CORPUS, FILES, plan_axes, point_inside, two_points

NAVMESH = Path(__file__).resolve().parents[2] / "pathsmooth" / "tests" / "data" / "navmesh"
BAKES = ["dungeon", "nav_test"]

# The bridge of test_pathsmooth.py: a 10 × 10 floor round a 2 × 6 block, a bridge over the
# block at height 3 (y up) reached by nothing.
BRIDGE_V = [(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10), (4, 0, 2), (6, 0, 2), (6, 0, 8),
            (4, 0, 8), (2, 3, 4), (8, 3, 4), (8, 3, 6), (2, 3, 6)]
BRIDGE_P = [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7], [8, 9, 10, 11]]
SQUARE = [(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10)]


class Fresh:
    """A new `Pipeline` for every plan (what `SurfacePlanner`, removed, was over its
    meshes): the oracle a pipeline reused across plans must equal."""

    def __init__(self, radius, preset=None, steps=None, climb=None):
        self.radius, self.preset, self.steps, self.climb = radius, preset, steps, climb
        self.report = None

    def plan(self, mesh, start, goal):
        pipeline = Pipeline(mesh, self.radius, self.preset, self.steps, climb=self.climb)
        try:
            return pipeline.plan3(start, goal)
        finally:
            self.report = pipeline.report


def bake(name: str) -> SurfaceMesh:
    return SurfaceMesh.load(NAVMESH / f"{name}.navmesh.json")


def outcome(call):
    """A call's arrays, or its error's type and message: what two paths must agree on."""
    try:
        return ("ok", call())
    except Error as e:
        return ("error", str(e))


def assert_same(a, b):
    """Two outcomes equal: the same error, or the same arrays bit for bit (dtype too)."""
    assert a[0] == b[0], (a, b)
    if a[0] == "error":
        assert a[1] == b[1]
        return
    for x, y in zip(a[1], b[1]):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.array_equal(x, y), (x, y)


def inside(ring: np.ndarray, p: np.ndarray, eps: float = 1e-9) -> bool:
    """Whether `p` lies in the convex ring (either winding), `eps` within its edges."""
    d = np.roll(ring, -1, axis=0) - ring
    e = p - ring
    cross = d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]
    scale = np.linalg.norm(d, axis=1)
    return bool((cross >= -eps * scale).all() or (cross <= eps * scale).all())


def check_on_mesh(mesh: SurfaceMesh, points: np.ndarray, polygons: np.ndarray) -> None:
    """The independent check of a 3D path: each point lies in its polygon in plan view, and
    each end at a height within the polygon's corner heights: exactly on a mesh of flat
    floors, within the bake's cell height (0.2) and the file's 6 decimals on a Recast bake,
    whose detail mesh gives the heights inside a polygon."""
    axes = plan_axes(mesh)
    up = 1 if mesh.up == "y" else 2
    slack = 0.2 + 1e-5 if mesh.num_polygons > 20 else 1e-9
    for i in range(len(points)):
        corners = mesh.vertices[mesh.polygons[int(polygons[i])]]
        assert inside(corners[:, axes], points[i, axes], 1e-6), (i, points[i], corners)
        lo, hi = corners[:, up].min(), corners[:, up].max()
        assert i not in (0, len(points) - 1) or lo - slack <= points[i, up] <= hi + slack, (i, points[i], lo, hi)


def pairs_on(mesh: SurfaceMesh, seed: int, n: int):
    """`n` random pairs of points strictly inside polygons of the largest piece."""
    rng = np.random.default_rng(seed)
    return [two_points(mesh, rng) for _ in range(n)]


# ---------------------------------------------------------------------------------------
# plan3 against a fresh pipeline's, and on its own


@pytest.mark.parametrize("name", BAKES)
@pytest.mark.parametrize("radius", [0.0, 0.3])
def test_plan3_equals_a_fresh_pipelines_on_recast_bakes(name, radius):
    mesh = bake(name)
    pipeline = Pipeline(mesh, radius, "smooth")
    planner = Fresh(radius, preset="smooth")
    planned = 0
    for start, goal in pairs_on(mesh, seed=len(name) + int(10 * radius), n=8):
        new = outcome(lambda: pipeline.plan3(start, goal))
        old = outcome(lambda: planner.plan(mesh, start, goal))
        assert_same(new, old)
        assert pipeline.report == planner.report
        if new[0] == "ok":
            planned += 1
            points, polygons, flags = new[1]
            assert points.shape == (len(polygons), 3) and flags[0] & 1 and flags[-1] & 2
            check_on_mesh(mesh, points, polygons)
            axes = plan_axes(mesh)
            assert (points[0, axes] == start[axes]).all()
            assert (points[-1, axes] == goal[axes]).all()
    assert planned >= 4, f"{name}: {planned} of 8 pairs planned"


@pytest.mark.parametrize("rel, up, detail", FILES, ids=[f[0] for f in FILES])
def test_plan3_equals_a_fresh_pipelines_on_every_corpus_file(rel, up, detail):
    mesh = SurfaceMesh.load(CORPUS / rel, up=up)
    pipeline = Pipeline(mesh, 0.0, preset="smooth")
    planner = Fresh(0.0, preset="smooth")
    for start, goal in pairs_on(mesh, seed=sum(map(ord, rel)), n=5):
        new = outcome(lambda: pipeline.plan3(start, goal))
        assert_same(new, outcome(lambda: planner.plan(mesh, start, goal)))
        if new[0] == "ok":
            check_on_mesh(mesh, new[1][0], new[1][1])
    assert pipeline.report == planner.report


def test_plan3_equals_a_fresh_pipelines_on_the_bridge():
    mesh = SurfaceMesh(np.array(BRIDGE_V, dtype=float), BRIDGE_P, up="y")
    pipeline = Pipeline(mesh, 0.5, preset="smooth")
    assert pipeline.world is mesh and pipeline.radius == 0.5 and pipeline.climb is None
    new = outcome(lambda: pipeline.plan3((1.0, 0.0, 5.0), (9.0, 0.0, 5.0)))
    old = outcome(lambda: Fresh(0.5, preset="smooth").plan(mesh, (1.0, 0.0, 5.0),
                                                                (9.0, 0.0, 5.0)))
    assert_same(new, old)
    points, polygons, flags = new[1]
    assert (points[:, 1] == 0.0).all() and (polygons < 4).all()
    assert flags[0] == 1 and flags[-1] == 2 and polygons.dtype == np.uint32
    assert flags.dtype == np.uint8 and pipeline.report["min_clearance"] >= 0.5
    check_on_mesh(mesh, points, polygons)


def test_plan3_equals_a_fresh_pipelines_on_unity_tiles():
    left = [(0, 0), (5, 0), (5, 10), (0, 0), (5, 10), (0, 10)]
    right = [(5, 0), (10, 0), (5, 5), (10, 0), (10, 10), (5, 5), (5, 5), (10, 10), (5, 10)]
    xz = np.array(left + right, dtype=float)
    vertices = np.column_stack([xz[:, 0], np.zeros(len(xz)), xz[:, 1]])
    mesh = SurfaceMesh.from_triangulation(vertices, np.arange(len(xz)))
    start, goal = np.array([1.0, 0.0, 9.0]), np.array([9.0, 0.0, 1.0])
    new = outcome(lambda: Pipeline(mesh, 0.5).plan3(start, goal))
    assert_same(new, outcome(lambda: Fresh(0.5).plan(mesh, start, goal)))
    points, polygons, _ = new[1]
    assert (points[0] == start).all() and (points[-1] == goal).all()
    check_on_mesh(mesh, points, polygons)


def test_climb_keyword_as_a_fresh_pipeline():
    mesh = SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3])
    # Within the mesh's climb (0.25) above the floor: on it, its plan-view position kept.
    pipeline, planner = Pipeline(mesh, 0.0), Fresh(0.0)
    for start in [(1.0, 0.2, 1.0), (-0.5, 0.0, 1.0), (1.0, 0.4, 1.0)]:
        new = outcome(lambda: pipeline.plan3(start, (9.0, 0.0, 9.0)))
        assert_same(new, outcome(lambda: planner.plan(mesh, start, (9.0, 0.0, 9.0))))
        assert pipeline.report["snapped"] == planner.report["snapped"]
    # A climb of 0.5 reaches it.
    high, old_high = Pipeline(mesh, 0.0, climb=0.5), Fresh(0.0, climb=0.5)
    assert high.climb == 0.5 == old_high.climb
    new = outcome(lambda: high.plan3((1.0, 0.4, 1.0), (9.0, 0.0, 9.0)))
    assert_same(new, outcome(lambda: old_high.plan(mesh, (1.0, 0.4, 1.0), (9.0, 0.0, 9.0))))
    assert (new[1][0][0] == [1.0, 0.0, 1.0]).all() and high.report["snapped"] == []


# ---------------------------------------------------------------------------------------
# plan with 2D ends


@pytest.mark.parametrize("name", BAKES)
def test_2d_ends_equal_the_plan_view_of_plan3_from_the_located_points(name):
    mesh = bake(name)
    axes = plan_axes(mesh)
    pipeline = Pipeline(mesh, 0.3, "smooth")
    compared = 0
    for start, goal in pairs_on(mesh, seed=7 * len(name), n=20):
        s2, g2 = start[axes], goal[axes]
        try:
            s3, g3 = pipeline.floor_point(s2), pipeline.floor_point(g2)
        except Error as e:
            assert "lies over" in str(e), str(e)
            continue
        assert s3.shape == (3,) and s3.dtype == np.float64 and (s3[axes] == s2).all()
        flat = outcome(lambda: (pipeline.plan(s2, g2),))
        report = pipeline.report
        full = outcome(lambda: pipeline.plan3(s3, g3))
        assert flat[0] == full[0], (flat, full)
        if flat[0] == "error":
            assert flat[1] == full[1]
            continue
        compared += 1
        path, (points, polygons, _) = flat[1][0], full[1]
        assert path.shape == (len(points), 2) and path.dtype == np.float64
        assert np.array_equal(path, points[:, axes])
        assert (path[0] == s2).all() and (path[-1] == g2).all()
        # The located points are on their polygons (this file's own check).
        check_on_mesh(mesh, points, polygons)
        assert report["plan_length"] == pytest.approx(pipeline.report["plan_length"], rel=1e-12)
    assert compared >= 6, f"{name}: {compared} of 20 pairs compared"


def twice_floored_point(mesh: SurfaceMesh) -> np.ndarray:
    """A plan-view point inside two polygons more than 2 apart in height: of two such
    polygons whose plan-view boxes overlap, a random point inside one (as `point_inside`
    picks them) that lies inside the other too."""
    axes, up = plan_axes(mesh), (1 if mesh.up == "y" else 2)
    rings = [mesh.vertices[p] for p in mesh.polygons]
    rng = np.random.default_rng(0)
    for a, lower in enumerate(rings):
        for b, upper in enumerate(rings):
            if upper[:, up].min() <= lower[:, up].max() + 2.0:
                continue
            lo = np.maximum(lower[:, axes].min(axis=0), upper[:, axes].min(axis=0))
            hi = np.minimum(lower[:, axes].max(axis=0), upper[:, axes].max(axis=0))
            if (lo >= hi).any():
                continue
            for _ in range(50):
                for here, there in ((b, lower), (a, upper)):
                    p = point_inside(mesh, here, rng)[axes]
                    if inside(there[:, axes], p, -1e-6):
                        return p
    raise AssertionError("no floors over floors")


@pytest.mark.parametrize("name", BAKES)
def test_a_2d_point_over_two_floors_raises_the_library_error(name):
    mesh = bake(name)
    p = twice_floored_point(mesh)
    pipeline = Pipeline(mesh, 0.3)
    somewhere = pairs_on(mesh, seed=1, n=1)[0][0][plan_axes(mesh)]
    for call, what in [(lambda: pipeline.plan(p, somewhere), "start"),
                       (lambda: pipeline.plan(somewhere, p), "goal"),
                       (lambda: pipeline.floor_point(p), "point")]:
        with pytest.raises(Error, match=rf"^{what} \(.*\) lies over 2 floors: give it in 3D \(plan3\) to say which$"):
            call()
    with pytest.raises(Error, match=r"^item 0: start .* lies over \d floors: give it in 3D \(plan3\)"):
        pipeline.plan_many([p], [somewhere])


# ---------------------------------------------------------------------------------------
# Errors: mixed ends, bad points, the wrong world


def test_mixed_2d_and_3d_ends_raise():
    mesh = SurfaceMesh(np.array(BRIDGE_V, dtype=float), BRIDGE_P, up="y")
    pipeline = Pipeline(mesh, 0.5)
    a2, b2, a3, b3 = (1.0, 5.0), (9.0, 5.0), (1.0, 0.0, 5.0), (9.0, 0.0, 5.0)
    for start, goal, what in [(a2, b3, "goal"), (a3, b2, "start"), (a3, b3, "start")]:
        with pytest.raises(Error, match=rf"^Pipeline\.plan: {what} is a 3D point .* plan3"):
            pipeline.plan(start, goal)
    for start, goal, what in [(a2, b3, "start"), (a3, b2, "goal"), (a2, b2, "start")]:
        with pytest.raises(Error, match=rf"^Pipeline\.plan3: {what} is a plan-view point"):
            pipeline.plan3(start, goal)
    # Both ends in plan view, or both in 3D: planned.
    assert pipeline.plan(a2, b2).shape[1] == 2 and pipeline.plan3(a3, b3)[0].shape[1] == 3


BAD_POINTS = [
    ((float("nan"), 5.0), (9.0, 5.0), r"NaN"),
    ((1.0, 5.0), (float("inf"), 5.0), r"NaN or infinite"),
    ((1.0,), (9.0, 5.0), r"start: expected a point \(x, y\), got shape \[1\]"),
    ((1.0, 5.0, 0.0, 1.0), (9.0, 5.0), r"start: expected a point \(x, y\), got shape \[4\]"),
    ([[1.0, 5.0]], (9.0, 5.0), r"start: expected a point \(x, y\), got shape \[1, 2\]"),
    ((1.0, 5.0), [], r"goal: expected a point \(x, y\), got shape \[0\]"),
    ((1.0, 5.0), [[1.0], [2.0, 3.0]], r"goal: not an array of numbers"),
    ((1000.0, 5.0), (9.0, 5.0), r"outside"),
]
BAD_POINTS3 = [
    ((1.0, float("nan"), 5.0), (9.0, 0.0, 5.0), r"NaN"),
    ((1.0, 0.0, 5.0), (9.0, 0.0, float("-inf")), r"NaN or infinite"),
    ((1.0,), (9.0, 0.0, 5.0), r"start: expected a point \(x, y, z\), got shape \[1\]"),
    ((1.0, 0.0, 5.0, 2.0), (9.0, 0.0, 5.0), r"start: expected a point \(x, y, z\)"),
    ((1.0, 0.0, 5.0), np.zeros((3, 1)), r"goal: expected a point \(x, y, z\), got shape \[3, 1\]"),
    ((1000.0, 0.0, 5.0), (9.0, 0.0, 5.0), r"^no floor within .* of \(1000, 0, 5\)"),
]


# A good pair of ends for each call, planned after a refused one.
GOOD_ENDS = {"plan": ((1.0, 5.0), (9.0, 5.0)), "plan3": ((1.0, 0.0, 5.0), (9.0, 0.0, 5.0))}


@pytest.mark.parametrize(
    "call, start, goal, message",
    [("plan", *bad) for bad in BAD_POINTS] + [("plan3", *bad) for bad in BAD_POINTS3],
)
def test_bad_ends_raise(call, start, goal, message):
    mesh = SurfaceMesh(np.array(BRIDGE_V, dtype=float), BRIDGE_P, up="y")
    pipeline = Pipeline(mesh, 0.5)
    with pytest.raises(Error, match=message):
        getattr(pipeline, call)(start, goal)
    # The pipeline still plans afterwards.
    planned = getattr(pipeline, call)(*GOOD_ENDS[call])
    points = planned[0] if call == "plan3" else planned
    assert len(points) >= 2


def test_non_numeric_ends_are_type_errors_and_bad_settings_raise():
    mesh = SurfaceMesh(np.array(BRIDGE_V, dtype=float), BRIDGE_P, up="y")
    pipeline = Pipeline(mesh, 0.5)
    with pytest.raises(TypeError, match="start: dtype <U1 is not a real number type"):
        pipeline.plan3(("a", "b", "c"), (9.0, 0.0, 5.0))
    with pytest.raises(TypeError, match="point: dtype"):
        pipeline.floor_point(("a", "b"))
    with pytest.raises(Error, match=r"^Pipeline: parameter `climb` = -1 is out of range"):
        Pipeline(mesh, 0.5, climb=-1.0)
    with pytest.raises(Error, match=r"^Pipeline: parameter `climb`"):
        Pipeline(mesh, 0.5, climb=float("nan"))
    with pytest.raises(Error, match="radius"):
        Pipeline(mesh, -1.0)
    with pytest.raises(Error, match="radius"):
        Pipeline(mesh, float("nan"))
    with pytest.raises(Error, match="unknown preset"):
        Pipeline(mesh, 0.5, "bumpy")  # type: ignore[arg-type]


def test_navmesh_calls_raise_on_a_grid_and_a_flat_navmesh_takes_them():
    world = GridWorld(np.ones((8, 8), dtype=bool))
    with pytest.raises(Error, match=r"^Pipeline: climb .* a GridWorld has no floors"):
        Pipeline(world, 0.3, climb=0.5)
    pipeline = Pipeline(world, 0.3)
    assert pipeline.climb is None
    with pytest.raises(Error, match=r"^Pipeline\.plan3 needs a navmesh world .* GridWorld"):
        pipeline.plan3((1.0, 0.0, 1.0), (6.0, 0.0, 6.0))
    with pytest.raises(Error, match=r"^Pipeline\.floor_point needs a navmesh world"):
        pipeline.floor_point((1.0, 1.0))
    # A flat world's plan is unchanged: 3D ends are a wrong shape there.
    with pytest.raises(Error, match=r"^start: expected a point \(x, y\), got shape \[3\]"):
        pipeline.plan((1.0, 0.0, 1.0), (6.0, 6.0))
    # A NavMeshWorld is the one navmesh world, a surface of one floor (z up, height 0):
    # 3D ends on it plan what their plan view plans.
    nav = pathsmooth.NavMeshWorld(
        [(0, 0), (4, 0), (4, 4), (0, 4), (6, 2)], [[0, 1, 2, 3], [1, 4, 2]]
    )
    pipeline = Pipeline(nav, 0.3, climb=0.5)
    assert pipeline.climb == 0.5
    flat = pipeline.plan((0.5, 0.5), (5.0, 2.0))
    points, polygons, flags = pipeline.plan3((0.5, 0.5, 0.25), (5.0, 2.0, 0.0))
    assert (points[:, :2] == flat).all() and (points[:, 2] == 0.0).all()
    assert polygons[0] == 0 and polygons[-1] == 1
    assert list(flags[[0, -1]]) == [1, 2]
    assert list(pipeline.floor_point((1.0, 1.0))) == [1.0, 1.0, 0.0]
    crowd = pathsmooth.Crowd(nav, 0.3)
    crowd.add_agent((0.5, 0.5), (5.0, 2.0), 1.0)
    crowd.update(0.5)
    assert (crowd.positions3()[:, :2] == crowd.positions()).all()
    assert (crowd.positions3()[:, 2] == 0.0).all()


# ---------------------------------------------------------------------------------------
# smooth, the batches, threads


def test_smooth_on_a_surface_runs_on_the_last_plans_sheet():
    mesh = bake("dungeon")
    pipeline = Pipeline(mesh, 0.3, "smooth")
    a, b = (-12.05, 0.62), (18.7, -80.07)
    # Before any plan there is no sheet: the library's error, and what it means.
    with pytest.raises(Error, match="no plan has cut one yet: plan first"):
        pipeline.smooth([a, b])
    with pytest.raises(Error, match=r"^item 0: .*no plan has cut one yet"):
        pipeline.smooth_many([[a, b]])
    path = pipeline.plan(a, b)
    # After the plan: on its sheet. Its own path smooths into a path valid for the radius.
    again = pipeline.smooth(path)
    assert again.shape[1] == 2 and pipeline.report["min_clearance"] >= 0.3
    many = pipeline.smooth_many([path, path], threads=2)
    assert all(np.array_equal(m, again) for m in many)
    assert np.array_equal(pathsmooth.smooth_many(pipeline, [path], threads=1)[0], again)


def test_plan_many_on_a_surface_equals_plan():
    mesh = bake("nav_test")
    axes = plan_axes(mesh)
    pipeline = Pipeline(mesh, 0.0)
    starts, goals = [], []
    for s, g in pairs_on(mesh, seed=3, n=12):
        try:
            pipeline.plan(s[axes], g[axes])
        except Error:
            continue
        starts.append(s[axes])
        goals.append(g[axes])
    assert len(starts) >= 4
    one = [pipeline.plan(s, g) for s, g in zip(starts, goals)]
    for threads in (1, 2, None):
        many = pipeline.plan_many(np.array(starts), np.array(goals), threads=threads)
        assert all(np.array_equal(x, y) for x, y in zip(one, many))
    with pytest.raises(Error, match="expected an N×2 array"):
        pipeline.plan_many(np.zeros((2, 3)), np.zeros((2, 3)))


def test_threads_share_a_surface_pipeline():
    mesh = bake("dungeon")
    pipeline = Pipeline(mesh, 0.3)
    pairs = pairs_on(mesh, seed=11, n=6)
    want = [outcome(lambda: pipeline.plan3(s, g)) for s, g in pairs]
    got: list = [None] * (2 * len(pairs))

    def work(k: int) -> None:
        for i, (s, g) in enumerate(pairs):
            got[k * len(pairs) + i] = outcome(lambda: pipeline.plan3(s, g))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, o in enumerate(got):
        assert_same(o, want[i % len(pairs)])
