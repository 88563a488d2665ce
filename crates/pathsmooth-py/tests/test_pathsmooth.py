"""pytest tests of the Python module `pathsmooth` (build it first: `maturin develop`).

The real-map test compares with `tests/data/reference.json`, which the Rust test
`tests/reference.rs` checks against the Rust pipeline: together, Python's points are the
Rust pipeline's to the last bit.
"""

import json
import runpy
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import pathsmooth
from pathsmooth import Error, GridWorld, NavMeshWorld, Pipeline

HERE = Path(__file__).resolve().parent
CRATE = HERE.parent
REFERENCE = json.loads((HERE / "data" / "reference.json").read_text())


def movingai(rel: str) -> Path:
    """A Moving AI file in the repository's `data/movingai/`. The data is part of the
    repository, so a missing file fails the test (naming the path) rather than skipping it."""
    path = CRATE.parents[1] / "data" / "movingai" / rel
    assert path.is_file(), f"Moving AI file {path} not found (the repository keeps data/movingai/)"
    return path


def bits(a) -> bytes:
    """The exact bytes of an N×2 float64 array (so -0.0 and 0.0 differ, as bits do)."""
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


# The small map of the README's quick start: 0.5 m cells, a block of wall in the middle.
ROWS = ["............", "............", "............", "....####....",
        "....####....", "............", "............", "............"]
FREE = np.array([[c == "." for c in r] for r in ROWS])
ASTAR = np.array([(1, 4), (2, 3), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2), (9, 3),
                  (10, 3)], dtype=float) * 0.5 + 0.25


@pytest.fixture(scope="module")
def small():
    return GridWorld(FREE, cell_size=0.5)


@pytest.fixture(scope="module")
def den():
    return GridWorld.from_movingai(movingai(REFERENCE["map"]))


# ---------------------------------------------------------------------------------------
# The same points as the Rust pipeline


def check(outcome, run):
    if "error" in outcome:
        with pytest.raises(Error) as e:
            run()
        assert str(e.value) == outcome["error"]
    else:
        got = run()
        assert got.dtype == np.float64 and got.shape == (len(outcome["points"]), 2)
        assert bits(got) == bits(outcome["points"])


def test_plan_and_smooth_on_a_moving_ai_map_match_rust_bit_for_bit(den):
    radius = REFERENCE["radius"]
    smooth = Pipeline(den, radius, preset="smooth")
    corridor = Pipeline(den, radius, preset="corridor")
    assert len(REFERENCE["cases"]) >= 10
    for case in REFERENCE["cases"]:
        start, goal = case["start"], case["goal"]
        astar = den.find_path(start, goal, 0.0)
        assert bits(astar) == bits(case["astar"])
        check(case["plan_smooth"], lambda: smooth.plan(start, goal))
        check(case["smooth_smooth"], lambda: smooth.smooth(np.array(case["astar"])))
        check(case["plan_corridor"], lambda: corridor.plan(start, goal))
        report = smooth.report
        assert report["validation"]["valid"] and report["min_clearance"] >= radius


def test_a_numpy_grid_is_the_moving_ai_map_indexed_row_column(den):
    """Row y of the `.map` is `free[y]`; y grows with the row index, as in Rust."""
    text = movingai(REFERENCE["map"]).read_text()
    rows = text.split("map\n", 1)[1].split()
    free = np.array([[c in ".GS" for c in row] for row in rows], dtype=np.uint8)
    world = GridWorld(free)
    assert (world.width, world.height) == (den.width, den.height) == (free.shape[1], free.shape[0])
    assert world.bounds == den.bounds
    from_text = GridWorld.from_movingai(text)
    case = REFERENCE["cases"][-1]
    for w in (world, from_text):
        assert bits(Pipeline(w, 0.3).plan(case["start"], case["goal"])) == bits(
            case["plan_smooth"]["points"])
    # A free cell and a wall, by [row, column].
    y, x = np.argwhere(free == 0)[0]
    assert world.clearance((x + 0.5, y + 0.5)) == 0.0


def test_quick_start_runs():
    runpy.run_path(str(CRATE / "examples" / "quickstart.py"), run_name="__main__")


def test_grid_frame_report_validate_metrics(small):
    assert small.bounds == ((0.0, 0.0), (6.0, 4.0))
    shifted = GridWorld(FREE, cell_size=0.5, origin=(10, -2))
    assert shifted.origin == (10.0, -2.0)
    p = Pipeline(small, 0.4)
    assert p.steps == ["shortcut", "chaikin"] and p.radius == 0.4 and p.world is small
    out = p.smooth(ASTAR)
    assert out.flags["C_CONTIGUOUS"] and out.shape[1] == 2
    assert (out[0] == ASTAR[0]).all() and (out[-1] == ASTAR[-1]).all()
    r = p.report
    assert r["repaired_segments"] > 0 and r["min_clearance"] >= 0.4 and r["skipped"] == []
    v = pathsmooth.validate(small, out, 0.4)
    assert v["valid"] and v["problem"] is None
    bad = pathsmooth.validate(small, [[1.0, 1.25], [5.0, 1.25]], 0.4)
    assert not bad["valid"] and bad["problem"]
    m = pathsmooth.metrics(out)
    assert m["points"] == len(out) and m["length"] == pytest.approx(v["length"])
    assert pathsmooth.metrics([[0, 0], [3, 4]])["length"] == 5.0


def test_skipped_steps_are_reported(small):
    p = Pipeline(small, 0.0, steps=["shortcut", "shortcut"])
    p.smooth(ASTAR)
    names = [name for name, _ in p.report["skipped"]]
    assert names == ["shortcut"] and "changed nothing" in p.report["skipped"][0][1]


def test_steps_with_parameters_and_navmesh():
    p = Pipeline(GridWorld(FREE, cell_size=0.5), 0.2,
                 steps=["shortcut", ("fillet", 0.3), ("resample", 0.25), "catmull-rom"])
    assert p.steps == ["shortcut", "fillet", "resample", "catmull-rom"]
    assert pathsmooth.validate(p.world, p.smooth(ASTAR), 0.2)["valid"]
    # Two unit squares side by side, then a third above the right one: an L.
    v = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1), (2, 2), (1, 2)]
    mesh = NavMeshWorld(v, [[0, 1, 4, 5], [1, 2, 3, 4], [4, 3, 6, 7]])
    assert mesh.num_polygons == 3 and mesh.bounds == ((0.0, 0.0), (2.0, 2.0))
    for preset in ("shortest", "smooth", "corridor"):
        q = Pipeline(mesh, 0.1, preset=preset)
        path = q.plan((0.2, 0.5), (1.5, 1.8))
        assert pathsmooth.validate(mesh, path, 0.1)["valid"]
    relaxed = Pipeline(mesh, 0.1, steps=["funnel", "relax"]).smooth([(0.2, 0.5), (1.5, 0.5),
                                                                     (1.5, 1.8)])
    assert relaxed.shape[1] == 2


# ---------------------------------------------------------------------------------------
# Accepted conversions


def test_other_dtypes_layouts_and_array_likes_are_converted(small):
    p = Pipeline(small, 0.4)
    want = bits(p.smooth(ASTAR))
    assert bits(p.smooth(ASTAR.tolist())) == want                 # nested lists
    assert bits(p.smooth(np.asfortranarray(ASTAR))) == want       # Fortran order: copied
    wide = np.zeros((len(ASTAR), 4))
    wide[:, ::2] = ASTAR
    assert not wide[:, ::2].flags["C_CONTIGUOUS"]
    assert bits(p.smooth(wide[:, ::2])) == want                   # strided view: copied
    quarters = (ASTAR * 4).astype(np.int64)                       # integers: to float64
    assert bits(Pipeline(GridWorld(FREE, 2.0), 1.0).smooth(quarters)) == bits(
        Pipeline(GridWorld(FREE, 2.0), 1.0).smooth(quarters.astype(float)))
    assert bits(p.smooth(ASTAR.astype(np.float32))) == bits(p.smooth(
        ASTAR.astype(np.float32).astype(np.float64)))
    # The input is never written to.
    ro = ASTAR.copy()
    ro.flags.writeable = False
    assert bits(p.smooth(ro)) == want


# ---------------------------------------------------------------------------------------
# Bad input: an exception with a clear message, never a crash


@pytest.mark.parametrize(
    "path, exc, message",
    [
        (np.zeros((5, 3)), Error, "expected an N×2 array (one row of x, y per point), got shape [5, 3]"),
        (np.zeros(4), Error, "got shape [4]"),
        (np.zeros((2, 2, 2)), Error, "got shape [2, 2, 2]"),
        ([[1.0, 1.0], [2.0]], Error, "path: not an array of numbers"),
        (np.array([["a", "b"], ["c", "d"]]), TypeError, "dtype <U1 is not a real number type"),
        (np.zeros((3, 2), dtype=complex), TypeError, "dtype complex128 is not a real number type"),
        (np.zeros((3, 2), dtype=bool), TypeError, "dtype bool is not a real number type"),
        (np.array([[object(), 1], [2, 3]]), TypeError, "dtype object is not a real number type"),
        ("not a path", TypeError, "is not a real number type"),
        (np.array([[1.0, 1.0], [np.nan, 2.0]]), Error, "point 1 has a NaN or infinite coordinate"),
        (np.array([[1.0, 1.0], [np.inf, 2.0]]), Error, "point 1 has a NaN or infinite coordinate"),
        (np.zeros((0, 2)), Error, "the path is empty"),
        (np.array([[1.0, 1.0], [100.0, 1.0]]), Error, "outside"),
    ],
)
def test_bad_paths(small, path, exc, message):
    with pytest.raises(exc) as e:
        Pipeline(small, 0.4).smooth(path)
    assert message in str(e.value)


def test_bad_paths_elsewhere(small):
    nan = [[0.5, 0.5], [float("nan"), 1.0]]
    for call in (lambda: pathsmooth.validate(small, nan, 0.0), lambda: pathsmooth.metrics(nan),
                 lambda: Pipeline(small, 0.0).smooth_many([ASTAR, nan])):
        with pytest.raises(Error, match="NaN or infinite"):
            call()
    with pytest.raises(Error, match=r"item 1: point 1 has a NaN"):
        Pipeline(small, 0.0).smooth_many([ASTAR, nan])


@pytest.mark.parametrize(
    "radius, message",
    [
        (-1.0, "parameter `radius` = -1 is out of range: a finite number ≥ 0"),
        (float("nan"), "parameter `radius` = NaN is out of range"),
        (float("inf"), "parameter `radius` = inf is out of range"),
        (5.0, "radius"),  # no free space has room for it
    ],
)
def test_bad_radius(small, radius, message):
    with pytest.raises(Error) as e:
        Pipeline(small, radius)
    assert message in str(e.value)


def test_bad_radius_type(small):
    with pytest.raises(TypeError):
        Pipeline(small, "wide")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(preset="nope"), "unknown preset `nope`: expected one of shortest, smooth, corridor"),
        (dict(steps=["bogus"]), "unknown step `bogus`: expected one of shortcut, chaikin"),
        (dict(steps=["fillet"]), "step `fillet` needs a minimum turning radius"),
        (dict(steps=["resample"]), "step `resample` needs a spacing"),
        (dict(steps=[("shortcut", 1.0)]), "step `shortcut` takes no parameter"),
        (dict(preset="smooth", steps=["shortcut"]), "give either preset or steps, not both"),
        # The library's checks, when the pipeline is made (as in the C ABI), not at its
        # first run; the message names the step and quotes the number short.
        (dict(steps=[("resample", -1.0)]), "step 0: parameter `spacing` = -1 is out of range"),
        (dict(steps=["shortcut", ("fillet", float("nan"))]), "step 1: parameter `"),
        (dict(steps=[("resample", 1e300), ("fillet", -1e-300)]), "step 1: parameter `"),
    ],
)
def test_bad_presets_and_steps(small, kwargs, message):
    with pytest.raises(Error) as e:
        Pipeline(small, 0.4, **kwargs)
    assert message in str(e.value)


def test_bad_step_lists(small):
    with pytest.raises(TypeError, match="got a str"):
        Pipeline(small, 0.4, steps="shortcut")
    with pytest.raises(TypeError, match="each step is a name or a"):
        Pipeline(small, 0.4, steps=[3])


def test_bad_worlds():
    with pytest.raises(Error, match="expected a 2D array indexed"):
        GridWorld(np.ones(5, dtype=bool))
    with pytest.raises(TypeError, match="dtype float64 is not an occupancy type"):
        GridWorld(np.ones((3, 3)))
    with pytest.raises(Error, match="no free"):
        GridWorld(np.zeros((3, 3), dtype=np.uint8))
    with pytest.raises(Error, match="cell_size"):
        GridWorld(FREE, cell_size=0.0)
    with pytest.raises(Error, match="origin"):
        GridWorld(FREE, origin=(float("nan"), 0.0))
    with pytest.raises(Error, match="origin: expected a point"):
        GridWorld(FREE, origin=(1.0, 2.0, 3.0))
    with pytest.raises(Error, match="width"):
        GridWorld(np.ones((1, 0), dtype=bool))
    with pytest.raises(Error, match="<text>:"):
        GridWorld.from_movingai("type octile\nheight 1\nwidth 2\nmap\n.")
    with pytest.raises(Error, match="no-such.map"):
        GridWorld.from_movingai("no-such.map")
    with pytest.raises(TypeError, match="expected a GridWorld, a NavMeshWorld or a SurfaceMesh"):
        Pipeline("a world", 0.4)
    with pytest.raises(Error):
        NavMeshWorld([(0, 0), (1, 0), (1, 1)], [[0, 1, 7]])  # a vertex that is not there
    with pytest.raises(TypeError, match="polygons"):
        NavMeshWorld([(0, 0), (1, 0), (1, 1)], [[0, 1, -2]])
    with pytest.raises(Error, match="vertices: expected an N×2 array"):
        NavMeshWorld(np.zeros((3, 3)), [[0, 1, 2]])


def test_bad_plans(small):
    p = Pipeline(small, 0.4)
    with pytest.raises(Error, match=r"start \(0.25, 0.25\) has clearance 0.25, less than the agent radius 0.4"):
        p.plan((0.25, 0.25), (5.25, 3.25))
    with pytest.raises(Error, match="start: expected a point"):
        p.plan((1.0, 1.0, 1.0), (5.25, 3.25))
    with pytest.raises(Error, match="outside"):
        p.plan((0.75, 0.75), (50.0, 3.25))
    with pytest.raises(Error, match="starts and goals differ in length"):
        p.plan_many([[0.75, 0.75]], [[5.25, 3.25], [5.25, 3.25]])
    with pytest.raises(Error, match="threads: expected at least 1"):
        p.smooth_many([ASTAR], threads=0)


# ---------------------------------------------------------------------------------------
# Batches and the GIL


def test_smooth_many_and_plan_many_equal_a_loop(den):
    cases = REFERENCE["cases"]
    paths = [np.array(c["astar"]) for c in cases] * 3
    p = Pipeline(den, 0.3, preset="smooth")
    loop = [bits(p.smooth(x)) for x in paths]
    for threads in (None, 1, 2):
        assert [bits(x) for x in p.smooth_many(paths, threads=threads)] == loop
        assert [bits(x) for x in pathsmooth.smooth_many(p, paths, threads=threads)] == loop
    starts = np.array([c["start"] for c in cases])
    goals = np.array([c["goal"] for c in cases])
    loop = [bits(p.plan(s, g)) for s, g in zip(starts, goals)]
    assert [bits(x) for x in p.plan_many(starts, goals, threads=2)] == loop
    assert [bits(x) for x in pathsmooth.plan_many(p, starts, goals)] == loop
    assert p.smooth_many([]) == []


def test_the_gil_is_released_during_work(den):
    """A Python thread keeps running while another is inside a long call."""
    cases = REFERENCE["cases"]
    starts = np.array([c["start"] for c in cases] * 100)
    goals = np.array([c["goal"] for c in cases] * 100)
    p = Pipeline(den, 0.3, preset="corridor")
    stamps, span, done = [], [], threading.Event()

    def work():
        span.append(time.perf_counter())
        p.plan_many(starts, goals, threads=1)
        span.append(time.perf_counter())
        done.set()

    def tick():
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    worker = threading.Thread(target=work)
    ticker.start()
    worker.start()
    worker.join()
    ticker.join()
    t0, t1 = span
    # Away from the switch interval (5 ms) at either end of the call: with the GIL held
    # throughout, no tick could land there.
    inside = [t for t in stamps if t0 + 0.02 < t < t1 - 0.02]
    assert t1 - t0 > 0.1, "the call was too short to tell"
    assert len(inside) > 5


def test_the_readme_python_quick_start_runs():
    """The README's Python block runs as it stands (the quick start file is its long form)."""
    readme = (CRATE.parents[1] / "README.md").read_text()
    block = readme.split("## Python quick start", 1)[1].split("```python\n", 1)[1]
    code = block.split("```", 1)[0]
    assert "pathsmooth.Pipeline" in code
    exec(compile(code, "README.md", "exec"), {})


# ---------------------------------------------------------------------------------------
# Layered navmeshes

# A 10 × 10 floor with a 2 × 6 block of wall in it, and a bridge over the block at height 3
# (y up) reached by nothing: the bridge is no wall and no floor for the path (the Rust
# docs' example of a layered navmesh).
BRIDGE_V = [(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10), (4, 0, 2), (6, 0, 2), (6, 0, 8),
            (4, 0, 8), (2, 3, 4), (8, 3, 4), (8, 3, 6), (2, 3, 6)]
BRIDGE_P = [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7], [8, 9, 10, 11]]


def test_a_pipeline_on_a_layered_navmesh():
    mesh = pathsmooth.SurfaceMesh(np.array(BRIDGE_V, dtype=float), BRIDGE_P, up="y")
    assert mesh.num_polygons == 5
    planner = pathsmooth.Pipeline(mesh, 0.5, preset="smooth")
    points, polygons, flags = planner.plan3((1.0, 0.0, 5.0), (9.0, 0.0, 5.0))
    assert points.shape == (len(polygons), 3) and points.dtype == np.float64
    assert (points[:, 1] == 0.0).all() and (polygons < 4).all()
    assert flags[0] == 1 and flags[-1] == 2 and polygons.dtype == np.uint32
    assert planner.report["min_clearance"] >= 0.5
    m = pathsmooth.metrics(points)
    assert m["points"] == len(points) and m["length"] > 8.0
    with pytest.raises(Error, match="vertices: expected an N×3 array"):
        pathsmooth.SurfaceMesh(np.zeros((4, 2)), [[0, 1, 2]])
    with pytest.raises(Error, match='up: expected "y" or "z"'):
        pathsmooth.SurfaceMesh(BRIDGE_V, BRIDGE_P, up="x")
    with pytest.raises(Error, match="start is a plan-view point"):
        planner.plan3((1.0, 5.0), (9.0, 0.0, 5.0))
    with pytest.raises(Error):
        planner.plan3((1.0, 0.0, float("nan")), (9.0, 0.0, 5.0))
    with pytest.raises(Error, match="radius"):
        pathsmooth.Pipeline(mesh, -1.0)


# ---------------------------------------------------------------------------------------
# Area costs (issue 28)

SWAMP_ROWS = ["..........", "..SSSSSS..", "..SSSSSS..", "..SSSSSS..", ".........."]
SWAMP_MAP = "type octile\nheight 5\nwidth 10\nmap\n" + "\n".join(SWAMP_ROWS) + "\n"


def test_area_costs_keep_smoothing_out_of_the_swamp():
    start, goal = (0.5, 2.5), (9.5, 2.5)
    blind = GridWorld.from_movingai(SWAMP_MAP)
    aware = GridWorld.from_movingai(SWAMP_MAP, area_costs="S=4")
    # The same world from arrays: free cells and per-cell areas, costs as a dict.
    free = np.ones((5, 10), dtype=bool)
    areas = np.array([[ord(c) for c in r] for r in SWAMP_ROWS], dtype=np.uint8)
    from_arrays = GridWorld(free, areas=areas, area_costs={"S": 4.0})
    # Straight through: 1.5 cells of ground, 6 of swamp at 4, 1.5 of ground.
    assert aware.segment_cost(start, goal) == 1.5 + 6 * 4.0 + 1.5
    assert blind.segment_cost(start, goal) == 9.0
    for world in (aware, from_arrays):
        p = Pipeline(world, 0.0, preset="smooth")
        out = p.plan(start, goal)
        r = p.report
        assert r["cost"] <= r["input_cost"] * (1 + 1e-9)
        assert abs(world.path_cost(out) - r["cost"]) <= 1e-9 * r["cost"]
        assert r["cost"] < 12.0  # round the swamp (through it would be 27)
    # Cost-blind smoothing goes straight through.
    p = Pipeline(blind, 0.0, preset="smooth")
    assert aware.path_cost(p.plan(start, goal)) == 27.0


@pytest.mark.parametrize(
    "costs, message",
    [
        ("S=0", "area cost for S"),
        ("S=-1", "area cost for S"),
        ("S=nan", "area cost for S"),
        ({"S": float("inf")}, "area cost for S"),
        ("S", "expected AREA=COST"),
        ({"S": "lots"}, "neither a number nor `exclude`"),
        ({300: 2.0}, "neither a terrain letter nor an id"),
    ],
)
def test_bad_area_costs(costs, message):
    with pytest.raises(Error, match=message):
        GridWorld.from_movingai(SWAMP_MAP, area_costs=costs)


def test_bad_area_inputs():
    with pytest.raises(TypeError, match="area_costs"):
        GridWorld.from_movingai(SWAMP_MAP, area_costs=4)
    with pytest.raises(Error, match="areas: expected an integer array of shape"):
        GridWorld(np.ones((2, 2), dtype=bool), areas=np.zeros((3, 2), dtype=np.uint8))
    with pytest.raises(Error, match="0–255"):
        GridWorld(np.ones((2, 2), dtype=bool), areas=np.full((2, 2), 256))
    world = GridWorld.from_movingai(SWAMP_MAP, area_costs="S=exclude")
    with pytest.raises(Error, match="which the area costs exclude"):
        world.find_path((0.5, 0.5), (3.5, 2.5))
    with pytest.raises(Error, match="no free"):
        GridWorld.from_movingai(SWAMP_MAP, area_costs=".=exclude,S=exclude")


def test_navmesh_area_costs():
    # A 5×3 block of unit squares; the middle square (2, 1) is swamp (area 2).
    verts = [(x, y) for y in range(4) for x in range(6)]
    squares, areas = [], []
    for y in range(3):
        for x in range(5):
            v = y * 6 + x
            squares.append([v, v + 1, v + 7, v + 6])
            areas.append(2 if (x, y) == (2, 1) else 63)
    start, goal = (0.5, 1.5), (4.5, 1.5)
    aware = NavMeshWorld(verts, squares, areas=areas, area_costs={2: 4.0})
    assert aware.segment_cost(start, goal) == 3.0 + 4.0
    p = Pipeline(aware, 0.0, preset="smooth")
    out = p.plan(start, goal)
    r = p.report
    assert r["cost"] <= r["input_cost"] * (1 + 1e-9)
    assert aware.path_cost(out) < 7.0  # round the swamp square
    walled = NavMeshWorld(verts, squares, areas=areas, area_costs="2=exclude")
    with pytest.raises(Error, match="which the area costs exclude"):
        walled.find_path((2.5, 1.5), goal)
    # A crowd on it walks round the excluded square too.
    crowd = pathsmooth.Crowd(walled, 0.2)
    agent = crowd.add_agent(start, goal, 1.0)
    for _ in range(80):
        crowd.update(0.1)
        x, y = crowd.positions()[agent]
        assert not (2.0 < x < 3.0 and 1.0 < y < 2.0), (x, y)
    assert crowd.arrived(agent)
    with pytest.raises(Error, match="0–255"):
        NavMeshWorld(verts, squares, areas=[300] * 15)
    with pytest.raises(Error):
        NavMeshWorld(verts, squares, areas=[1, 2])  # not one per polygon


def test_world_queries_refuse_nan_and_infinite_points():
    nan, inf = float("nan"), float("inf")
    grid = GridWorld(np.ones((4, 4), dtype=bool))
    mesh = NavMeshWorld([(0, 0), (4, 0), (4, 4), (0, 4)], [[0, 1, 2, 3]])
    for world in (grid, mesh):
        assert world.clearance((1.0, 1.0)) == 1.0
        for call in (
            lambda: world.clearance((nan, 1.0)),
            lambda: world.clearance((1.0, inf)),
            lambda: world.segment_cost((1.0, 1.0), (nan, 2.0)),
            lambda: world.segment_cost((-inf, 1.0), (2.0, 2.0)),
            lambda: world.path_cost([(1.0, 1.0), (2.0, nan), (3.0, 3.0)]),
        ):
            with pytest.raises(Error, match="NaN or infinite"):
                call()
