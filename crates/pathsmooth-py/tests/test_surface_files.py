"""Navmesh files and Unity's triangulation as `SurfaceMesh`es (`SurfaceMesh.load`,
`SurfaceMesh.from_triangulation`): every file of the library's corpus
(`crates/pathsmooth/tests/data/corpus`, listed in its MANIFEST.tsv) loads with the polygon
count the manifest gives less the polygons the reader dropped, and plans between two
random points inside its polygons, the start kept in plan view exactly; bad input raises
`pathsmooth.Error` naming the call."""

import csv
from pathlib import Path

import numpy as np
import pytest

import pathsmooth
from pathsmooth import Error, Pipeline, SurfaceMesh

CORPUS = Path(__file__).resolve().parents[2] / "pathsmooth" / "tests" / "data" / "corpus"


def manifest() -> dict[str, int]:
    """File (relative to the corpus) → its polygon count, from MANIFEST.tsv."""
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return {row["file"]: int(row["polygons"]) for row in rows}


def plan_axes(mesh: SurfaceMesh) -> list[int]:
    """The plan-view coordinates of a point: x, z for y up; x, y for z up."""
    return [0, 2] if mesh.up == "y" else [0, 1]


def point_inside(mesh: SurfaceMesh, polygon: int, rng: np.random.Generator) -> np.ndarray:
    """A random point strictly inside `polygon`: a random convex combination of its corners
    (every weight > 0), pulled a tenth of the way towards their centre."""
    corners = mesh.vertices[mesh.polygons[polygon]]
    weights = rng.random(len(corners)) + 1e-3
    q = weights @ corners / weights.sum()
    centre = corners.mean(axis=0)
    return centre + 0.9 * (q - centre)


def two_points(mesh: SurfaceMesh, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two random points inside two random polygons of the largest connected piece."""
    pieces = mesh.pieces
    largest = np.bincount(pieces).argmax()
    polygons = np.flatnonzero(pieces == largest)
    a, b = rng.choice(polygons, size=2, replace=len(polygons) < 2)
    return point_inside(mesh, int(a), rng), point_inside(mesh, int(b), rng)


def check_loaded(mesh: SurfaceMesh, rel: str, seed: int) -> None:
    """The polygon count against the manifest's, the report's shape, and a plan."""
    want = manifest()
    assert rel in want, f"{rel} is not in MANIFEST.tsv"
    report = mesh.load_report
    assert report["input_polygons"] == want[rel], report
    dropped = len(report["degenerate"]) + len(report["duplicates"])
    assert mesh.num_polygons == want[rel] - dropped, (mesh.num_polygons, report)
    assert isinstance(report["summary"], str) and report["summary"]
    assert mesh.pieces.dtype == np.uint32 and mesh.pieces.shape == (mesh.num_polygons,)
    refs = mesh.polygon_refs
    assert refs.dtype == np.uint64 and len(np.unique(refs)) == mesh.num_polygons
    assert mesh.climb > 0.0
    assert mesh.vertices.shape[1] == 3 and len(mesh.polygons) == mesh.num_polygons

    # Random pairs: each a path or a pathsmooth.Error that says why (the planner refuses
    # a path its final check finds invalid: on polyanya's degenerate test meshes, now and
    # then); most of them planned, each path's ends kept exactly.
    rng = np.random.default_rng(seed)
    planner = Pipeline(mesh, 0.0, preset="smooth")
    axes = plan_axes(mesh)
    planned = 0
    for _ in range(5):
        start, goal = two_points(mesh, rng)
        try:
            points, polygons, flags = planner.plan3(start, goal)
        except Error as e:
            assert "not valid" in str(e), str(e)
            continue
        planned += 1
        # The start is over its polygon on its floor: its plan-view position is kept.
        assert (points[0, axes] == start[axes]).all(), (points[0], start)
        assert (points[-1, axes] == goal[axes]).all(), (points[-1], goal)
        assert flags[0] & 1 and flags[-1] & 2 and len(polygons) == len(points)
    assert planned >= 3, f"{rel}: {planned} of 5 pairs planned"
    r = planner.report
    assert r["snapped"] == [] and r["plan_length"] > 0.0
    assert r["validation"]["length"] >= r["plan_length"] * (1 - 1e-12)


def corpus_files() -> list[tuple[str, str | None, str | None]]:
    """Every navmesh of the manifest (not scenarios nor the Lua table): (file, up for the
    formats that do not name theirs, None: no separate detail mesh)."""
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [
        (row["file"], "z" if row["up"] == "z" else None, None)
        for row in rows
        if row["format"] not in ("polyanya-scen", "other", "detour")
    ]


FILES = corpus_files()


@pytest.mark.parametrize("rel, up, detail", FILES, ids=[f[0] for f in FILES])
def test_every_corpus_file_loads_and_plans(rel, up, detail):
    mesh = SurfaceMesh.load(
        CORPUS / rel, up=up, detail=None if detail is None else str(CORPUS / detail)
    )
    assert mesh.up == (up or "y")
    check_loaded(mesh, rel, seed=sum(map(ord, rel)))


def test_the_corpus_detour_binaries_load_and_plan():
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    bins = [row["file"] for row in rows if row["format"] == "detour"]
    assert len(bins) >= 11, f"{len(bins)} Detour files in MANIFEST.tsv"
    for rel in bins:
        mesh = SurfaceMesh.load(CORPUS / rel)
        check_loaded(mesh, rel, seed=sum(map(ord, rel)))
    # A tile cache beside them is no navmesh: refused by name.
    caches = [row["file"] for row in rows if row["file"].endswith("tilecache.bin")]
    assert caches
    for rel in caches:
        with pytest.raises(pathsmooth.Error, match="a Detour tile cache"):
            SurfaceMesh.load(CORPUS / rel)


def test_load_takes_paths_and_strings_and_reports_what_it_repaired():
    rel = "godot/godotengine__navmesh-demo-3x.tscn"
    a, b = SurfaceMesh.load(CORPUS / rel), SurfaceMesh.load(str(CORPUS / rel))
    assert a.num_polygons == b.num_polygons == 101
    report = a.load_report
    # 167 vertices listed, 90 distinct (MANIFEST.tsv).
    assert (report["input_vertices"], report["welded"], len(a.vertices)) == (167, 77, 90)
    assert report["summary"].startswith("welded 77 vertices")
    assert set(report) == {
        "input_vertices", "input_polygons", "weld", "welded", "repeated_corners", "degenerate",
        "duplicates", "reversed", "t_junctions", "non_planar", "worst_non_planar",
        "unjoined_edges", "unjoined_example", "detail_slivers", "unconnected_links", "clean",
        "summary",
    }
    # A weld of 0 merges exact copies only.
    exact = SurfaceMesh.load(CORPUS / rel, weld=0.0)
    assert exact.load_report["weld"] == 0.0 and exact.num_polygons == 101
    assert "101 polygons" in repr(a)


def test_from_triangulation_welds_unity_tiles_and_splits_their_seams():
    # Two tiles of a 10 × 10 floor (y up), every triangle with its own vertex copies; the
    # right tile has a vertex (5, 5) in the middle of the left tile's edge x = 5.
    left = [(0, 0), (5, 0), (5, 10), (0, 0), (5, 10), (0, 10)]
    right = [(5, 0), (10, 0), (5, 5), (10, 0), (10, 10), (5, 5), (5, 5), (10, 10), (5, 10)]
    xz = np.array(left + right, dtype=float)
    vertices = np.column_stack([xz[:, 0], np.zeros(len(xz)), xz[:, 1]])
    indices = np.arange(len(xz))
    mesh = SurfaceMesh.from_triangulation(vertices, indices, areas=[0, 0, 3, 3, 3])
    report = mesh.load_report
    assert len(mesh.vertices) == 7 and report["welded"] == 15 - 7
    assert report["t_junctions"] == 1 and mesh.num_polygons == 5
    assert (mesh.pieces == 0).all(), "the tiles are joined"
    planner = Pipeline(mesh, 0.5)
    start, goal = np.array([1.0, 0.0, 9.0]), np.array([9.0, 0.0, 1.0])
    points, polygons, _ = planner.plan3(start, goal)
    assert (points[0] == start).all() and (points[-1] == goal).all()
    assert polygons[0] in (0, 1) and polygons[-1] in (2, 3, 4)
    # Indices as M×3, any integer dtype; the same surface.
    again = SurfaceMesh.from_triangulation(vertices, indices.reshape(-1, 3).astype(np.int16))
    assert again.num_polygons == 5 and len(again.vertices) == 7


def test_climb_and_snapped_ends():
    vertices = [(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10)]
    mesh = SurfaceMesh.from_triangulation(vertices, [0, 1, 2, 0, 2, 3])
    assert mesh.climb == 0.25
    # Within the climb above the floor: on it, its plan-view position kept.
    planner = Pipeline(mesh, 0.0)
    points, _, _ = planner.plan3((1.0, 0.2, 1.0), (9.0, 0.0, 9.0))
    assert (points[0] == [1.0, 0.0, 1.0]).all()
    assert planner.report["snapped"] == [] and planner.climb is None
    # Off the floor in plan view: moved onto it, and the report says how far.
    points, _, _ = planner.plan3((-0.5, 0.0, 1.0), (9.0, 0.0, 9.0))
    assert points[0][0] == 0.0
    assert planner.report["snapped"] == [("start", pytest.approx(0.5))]
    # A climb of 0.5 reaches a start 0.4 above the floor.
    high = Pipeline(mesh, 0.0, climb=0.5)
    assert high.climb == 0.5
    points, _, _ = high.plan3((1.0, 0.4, 1.0), (9.0, 0.0, 9.0))
    assert (points[0] == [1.0, 0.0, 1.0]).all() and high.report["snapped"] == []


def test_the_2d_pipeline_report_has_the_same_shape():
    world = pathsmooth.GridWorld(np.ones((4, 4), dtype=bool))
    pipeline = pathsmooth.Pipeline(world, 0.0, preset="shortest")
    pipeline.plan((0.5, 0.5), (3.5, 2.5))
    r = pipeline.report
    assert r["snapped"] == [] and r["plan_length"] == r["validation"]["length"] > 0.0
    square = SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3])
    assert set(r) == set(Pipeline(square, 0.0).report)


GODOT = CORPUS / "godot" / "Flavelius__Test.tscn"
SQUARE = [(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10)]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda tmp: SurfaceMesh.load(tmp / "missing.tscn"),
         r"^SurfaceMesh\.load: .*missing\.tscn: No such file"),
        (lambda tmp: SurfaceMesh.load(tmp / "garbage.bin"),
         r"^SurfaceMesh\.load: .*garbage\.bin:1:1: not a navmesh file this library reads"),
        (lambda tmp: SurfaceMesh.load(GODOT, weld=-1.0),
         r"^SurfaceMesh\.load: parameter `weld` = -1 is out of range"),
        (lambda tmp: SurfaceMesh.load(GODOT, weld=float("nan")), r"^SurfaceMesh\.load: .*weld"),
        (lambda tmp: SurfaceMesh.load(GODOT, up="z"),
         r"^SurfaceMesh\.load: .*the navmesh is y up \(its format says so\)"),
        (lambda tmp: SurfaceMesh.load(GODOT, up="x"), r'^SurfaceMesh\.load: up: expected "y" or "z"'),
        (lambda tmp: SurfaceMesh.load(GODOT, detail=GODOT),
         r"^SurfaceMesh\.load: a separate detail mesh for a Godot scene"),
        (lambda tmp: SurfaceMesh.from_triangulation([(0, 0, 0), (1, float("nan"), 0), (0, 0, 1)],
                                                    [0, 1, 2]),
         r"^SurfaceMesh\.from_triangulation: point 1 has a NaN"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2], weld=-1.0),
         r"^SurfaceMesh\.from_triangulation: parameter `weld` = -1"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3], areas=[0, 300]),
         r"^SurfaceMesh\.from_triangulation: areas\[1\] = 300 is out of range: area indices 0–255"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3], areas=[-1, 0]),
         r"areas\[0\] = -1 is out of range"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3], areas=[0.0, 1.5]),
         r"^SurfaceMesh\.from_triangulation: areas: expected integers"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3], areas=[0]),
         r"^SurfaceMesh\.from_triangulation: parameter `areas` = 1 is out of range"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, -2]),
         r"^SurfaceMesh\.from_triangulation: indices\[2\] = -2 is out of range"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 3]),
         r"^SurfaceMesh\.from_triangulation: parameter `indices` = 4 is out of range"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [[0, 1], [2, 3]]),
         r"^SurfaceMesh\.from_triangulation: indices: expected a flat array or an M×3 array"),
        (lambda tmp: SurfaceMesh.from_triangulation(SQUARE, [0, 1, 9]),
         r"^SurfaceMesh\.from_triangulation: invalid polygon: polygon 0 uses vertex 9"),
        (lambda tmp: SurfaceMesh.from_triangulation(np.zeros((3, 2)), [0, 1, 2]),
         r"^SurfaceMesh\.from_triangulation: vertices: expected an N×3 array"),
        (lambda tmp: Pipeline(SurfaceMesh.from_triangulation(SQUARE, [0, 1, 2, 0, 2, 3]), 0.5,
                              climb=-1.0),
         r"^Pipeline: parameter `climb` = -1 is out of range"),
    ],
)
def test_bad_input_raises_error_naming_the_call(tmp_path, call, message):
    (tmp_path / "garbage.bin").write_bytes(bytes([0, 159, 146, 150, 7, 7, 0, 1]))
    with pytest.raises(Error, match=message) as e:
        call(tmp_path)
    assert "ps_" not in str(e.value)


def test_one_floor_files_are_flat_worlds_planning_the_layered_paths():
    """`NavMeshWorld.from_surface`: a corpus file whose floors do not overlap becomes a flat
    world whose shortest paths between random points inside its polygons end exactly there
    and are as long as the layered pipeline's between the same plan-view points (to 1e-9);
    a file with a floor over another raises `Error`, saying so. The corpus holds both."""
    flat = refused = 0
    rng = np.random.default_rng(2026)
    for rel, up, detail in FILES:
        mesh = SurfaceMesh.load(
            CORPUS / rel, up=up, detail=None if detail is None else str(CORPUS / detail)
        )
        try:
            world = pathsmooth.NavMeshWorld.from_surface(mesh)
        except Error as e:
            assert "not one floor in plan view" in str(e), f"{rel}: {e}"
            refused += 1
            continue
        flat += 1
        assert world.num_polygons == mesh.num_polygons, rel
        axes = plan_axes(mesh)
        on_flat = pathsmooth.Pipeline(world, 0.0, preset="shortest")
        layered = pathsmooth.Pipeline(mesh, 0.0, preset="shortest")
        for _ in range(5):
            a, b = (p[axes] for p in two_points(mesh, rng))
            path = on_flat.plan(a, b)
            assert (path[0] == a).all() and (path[-1] == b).all(), rel
            length = np.linalg.norm(np.diff(path, axis=0), axis=1).sum()
            other = layered.plan(a, b)
            want = np.linalg.norm(np.diff(other, axis=0), axis=1).sum()
            assert abs(length - want) <= 1e-9 * max(1.0, want), (rel, a, b, length, want)
    assert flat >= 10 and refused >= 5, (flat, refused)
