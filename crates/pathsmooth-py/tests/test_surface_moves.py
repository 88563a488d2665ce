"""`SurfaceMesh.locate` and `SurfaceMesh.move_along_surface` on a real multi-floor Recast
bake (RecastDemo's dungeon, `crates/pathsmooth/tests/data/navmesh`), judged by an oracle
written here: its own point-in-polygon test in plan view and the floor's height."""

from pathlib import Path

import numpy as np
import pytest

from pathsmooth import Error, SurfaceMesh

DUNGEON = (
    Path(__file__).resolve().parents[2]
    / "pathsmooth"
    / "tests"
    / "data"
    / "navmesh"
    / "dungeon.navmesh.json"
)


def plan(mesh: SurfaceMesh, p: np.ndarray) -> np.ndarray:
    """The plan-view coordinates (y up: x, z)."""
    return p[..., [0, 2]]


def inside(mesh: SurfaceMesh, polygon: int, q: np.ndarray, slack: float = 1e-9) -> bool:
    """`q` (plan view) in the closed convex polygon (counter-clockwise), to `slack`."""
    ring = plan(mesh, mesh.vertices[mesh.polygons[polygon]])
    a, b = ring, np.roll(ring, -1, axis=0)
    e, w = b - a, q - a
    cross = e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]
    return bool((cross >= -slack * np.linalg.norm(e, axis=1)).all())


def random_inside(mesh: SurfaceMesh, polygon: int, rng: np.random.Generator) -> np.ndarray:
    corners = mesh.vertices[mesh.polygons[polygon]]
    weights = rng.random(len(corners)) + 1e-3
    q = weights @ corners / weights.sum()
    centre = corners.mean(axis=0)
    return centre + 0.9 * (q - centre)


@pytest.fixture(scope="module")
def dungeon() -> SurfaceMesh:
    return SurfaceMesh.load(DUNGEON)


def test_points_inside_polygons_are_located_on_them(dungeon):
    rng = np.random.default_rng(5)
    polygons = rng.integers(0, dungeon.num_polygons, size=300)
    points = np.array([random_inside(dungeon, int(p), rng) for p in polygons])
    found, at = dungeon.locate(points)
    assert found.dtype == np.uint32 and at.shape == (300, 3)
    # Kept in plan view, exactly; on a polygon holding the point, at a floor within the
    # climb of the point's (a point over several polygons of one floor may name another).
    assert (plan(dungeon, at) == plan(dungeon, points)).all()
    for p, q in zip(found, at):
        assert inside(dungeon, int(p), plan(dungeon, q))
    assert np.abs(at[:, 1] - points[:, 1]).max() <= dungeon.climb


def test_moves_stay_on_their_floor_and_reach_targets_in_their_polygon(dungeon):
    rng = np.random.default_rng(6)
    n = 2000
    polygons = rng.integers(0, dungeon.num_polygons, size=n)
    starts = np.array([random_inside(dungeon, int(p), rng) for p in polygons])
    polygons, starts = dungeon.locate(starts)
    step = rng.normal(size=(n, 3)) * 0.3
    targets = starts + step
    moved, at = dungeon.move_along_surface(polygons, starts, targets)
    assert moved.dtype == np.uint32 and at.shape == (n, 3)
    to = plan(dungeon, targets)
    own = 0
    for i in range(n):
        p, q = int(moved[i]), plan(dungeon, at[i])
        assert inside(dungeon, p, q), i
        # Never farther from the target; the floor kept (heights change by at most the
        # climb plus a 45° slope over the move, far below a storey).
        assert np.linalg.norm(q - to[i]) <= np.linalg.norm(plan(dungeon, starts[i]) - to[i]) + 1e-9
        assert abs(at[i, 1] - starts[i, 1]) <= dungeon.climb + np.linalg.norm(step[i]) * 2
        if inside(dungeon, int(polygons[i]), to[i], slack=-1e-6):
            # Inside the start's own polygon: there exactly.
            assert int(moved[i]) == int(polygons[i]) and (q == to[i]).all(), i
            own += 1
    assert own > n // 4, own
    # One row at a time gives the same answers.
    for i in range(0, n, 97):
        one = dungeon.move_along_surface(polygons[i : i + 1], starts[i : i + 1], targets[i : i + 1])
        assert one[0][0] == moved[i] and (one[1][0] == at[i]).all()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"polygons": [10**9]}, "row 0: polygon 1000000000 is out of range"),
        ({"polygons": [-1]}, "row 0: polygon -1 is out of range"),
        ({"targets": [[np.nan, 0.0, 0.0]]}, "row 0: the target has a NaN or infinite"),
        ({"starts": [[np.inf, 0.0, 0.0]]}, "row 0: the start has a NaN or infinite"),
        ({"targets": [[1e300, 0.0, 0.0]]}, "row 0: the target has coordinate 1e300"),
        ({"starts": [[1e4, 0.0, 1e4]]}, "row 0: start (10000, 10000) is outside the navmesh"),
        ({"targets": [[0.0, 0.0, 0.0]] * 2}, "have 1, 1 and 2 rows"),
        ({"starts": [0.0, 0.0]}, "starts: expected an N×3 array"),
    ],
)
def test_bad_rows_raise_error_naming_the_row(dungeon, change, message):
    start = random_inside(dungeon, 0, np.random.default_rng(7))
    (polygon,), (start,) = dungeon.locate([start])
    args = {"polygons": [polygon], "starts": [start], "targets": [start]}
    args.update(change)
    with pytest.raises(Error, match="^SurfaceMesh.move_along_surface: .*") as e:
        dungeon.move_along_surface(args["polygons"], args["starts"], args["targets"])
    assert message in str(e.value), str(e.value)


def test_a_point_off_every_floor_is_named(dungeon):
    with pytest.raises(Error, match=r"^SurfaceMesh.locate: row 1: "):
        dungeon.locate([dungeon.vertices[0], [1e4, 0.0, 1e4]])
