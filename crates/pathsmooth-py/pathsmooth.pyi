"""Type stubs of the `pathsmooth` extension module (Rust, PyO3).

Paths are N×2 arrays of x, y in world units: any array-like of real numbers (float or
integer dtypes are converted to float64; a non-contiguous array is copied; bool, complex,
object and string dtypes raise TypeError; a wrong shape raises `Error`). Returned paths
are new C-contiguous float64 N×2 arrays. NaN, infinite or out-of-range coordinates, a
bad radius, a blocked start, an unreachable goal... raise `Error` with the library's
message. Every call releases the GIL while it works.
"""

import os
from typing import Literal, Sequence, Tuple, TypedDict, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Error", "GridWorld", "NavMeshWorld", "Pipeline", "Crowd", "SurfaceMesh",
    "validate", "metrics", "smooth_many", "plan_many", "__version__",
]
__version__: str

_ArrayLike = npt.ArrayLike
_Path2 = npt.NDArray[np.float64]
_PointLike = Union[Tuple[float, float], Sequence[float], npt.ArrayLike]
_Point3Like = Union[Tuple[float, float, float], Sequence[float], npt.ArrayLike]
_Bounds = Tuple[Tuple[float, float], Tuple[float, float]]
# "S=4,W=exclude", or {"S": 4.0, "W": "exclude", 7: 2.5}: terrain letters or area ids
# 0–255 to a cost multiplier in [2**-20, 2**20] or "exclude".
_AreaCosts = Union[str, dict[Union[str, int], Union[float, str]]]
_PresetName = Literal["shortest", "smooth", "corridor"]
_StepName = Literal["shortcut", "chaikin", "catmull-rom", "funnel", "relax", "corridor"]
# ("resample", spacing) and ("fillet", minimum turning radius), world units.
_StepWithValue = Tuple[Literal["resample", "fillet"], float]
_Steps = Sequence[Union[_StepName, _StepWithValue]]

class _AvoidSettings(TypedDict, total=False):
    """`Crowd(avoid=...)`'s settings: those left out keep the library's defaults."""

    time_horizon: float
    max_neighbours: int
    wall_time_horizon: float
    neighbour_distance: float | None

class _SpeedProfile(TypedDict, total=False):
    """`Crowd(speed_profile=...)`'s limits (the library's `follow::Agent`; angles in
    radians): those left out keep the library's defaults."""

    max_speed: float
    max_accel: float
    max_brake: float
    max_lateral_accel: float
    max_turn_rate: float
    stop_angle: float
    max_corner_cut: float

class Error(ValueError):
    """An error of the pathsmooth library (its message), or an array of the wrong shape."""

class _Validation(TypedDict):
    valid: bool
    problem: str | None
    min_clearance: float
    radius: float
    length: float
    max_turn: float
    total_turn: float
    blocked_segments: list[int]
    blocked_bends: list[int]
    clearance_violations: list[int]
    first_problem_at: Tuple[float, float] | None

class _Corner(TypedDict):
    index: int
    at: Tuple[float, float]
    turn: float
    radius: float
    limit: str

class _Report(TypedDict):
    skipped: list[Tuple[str, str]]
    """Steps that did not take effect, with the reason."""
    repaired_segments: int
    """Input segments re-planned with room for the agent before smoothing."""
    min_clearance: float
    validation: _Validation
    corners: list[_Corner]
    input_cost: float
    """The cost of the steps' input under the world's area costs (its length without)."""
    cost: float
    """The cost of the returned path; never above `input_cost` (relative 1e-9)."""
    plan_length: float
    """The path's plan-view length (on a surface, where `validation["length"]` is its 3D
    length along the floors; the same as that length on a grid or navmesh)."""
    snapped: list[Tuple[Literal["start", "goal"], float]]
    """The ends moved onto the surface because they were off it, and how far (plan view);
    empty when both were on it (an end over a polygon within the climb of its floor keeps
    its plan-view position exactly) and always on a grid or navmesh."""

class _LoadReport(TypedDict):
    """What building a `SurfaceMesh` repaired, dropped or noticed in its input (polygon and
    vertex ids are input indices)."""

    input_vertices: int
    input_polygons: int
    weld: float
    """The weld tolerance used (given, or derived from the mesh's size)."""
    welded: int
    """Input vertices merged into another."""
    repeated_corners: int
    degenerate: list[int]
    """Polygons dropped: fewer than 3 distinct corners after welding, or no area in plan view."""
    duplicates: list[int]
    """Polygons dropped as copies of an earlier one."""
    reversed: int
    t_junctions: int
    """Vertices inserted into edges they lay on."""
    non_planar: int
    worst_non_planar: Tuple[int, int, float] | None
    """(polygon, vertex, distance from the polygon's plane)."""
    unjoined_edges: int
    unjoined_example: Tuple[Tuple[int, int], int] | None
    """((vertex, vertex), polygon that made the edge ambiguous)."""
    detail_slivers: int
    unconnected_links: list[int]
    """Off-mesh links of the file left out (an end with no floor within its radius)."""
    clean: bool
    """True when nothing but exact vertex copies was changed (and nothing noticed)."""
    summary: str
    """One line naming what happened, or "nothing to repair"."""

class _Metrics(TypedDict):
    points: int
    length: float
    max_turn: float
    """Radians."""
    total_turn: float
    max_curvature: float
    mean_curvature: float

class _WorldQueries:
    """The queries both world classes answer: the module writes them once for both
    (`world_pymethods!` in src/lib.rs). A name of the stubs only: at runtime each world
    class has these methods itself, and no base class."""

    @property
    def bounds(self) -> _Bounds: ...
    def clearance(self, point: _PointLike) -> float: ...
    def find_path(self, start: _PointLike, goal: _PointLike, radius: float = 0.0) -> _Path2:
        """The world's own search, unsmoothed (keeps `radius` from the walls)."""
    def segment_cost(self, a: _PointLike, b: _PointLike) -> float:
        """The length inside each grid cell, or navmesh triangle, times its area's cost."""
    def path_cost(self, path: npt.ArrayLike) -> float:
        """The sum of the path's segment costs."""

@final
class GridWorld(_WorldQueries):
    """An occupancy grid in world units.

    `free` is a 2D bool or integer array indexed ``[row, column]`` (True / nonzero: a free
    cell). Cell (column x, row y) covers ``origin + cell_size * [x, x+1] × [y, y+1]``: row 0
    is at the origin's y and y grows with the row index (as `GridWorld::from_fn` in Rust
    and as Moving AI maps, whose first line is row 0).
    """

    def __new__(
        cls,
        free: npt.ArrayLike,
        cell_size: float = 1.0,
        origin: _PointLike | None = None,
        areas: npt.ArrayLike | None = None,
        area_costs: _AreaCosts | None = None,
    ) -> GridWorld:
        """`areas`: an integer array shaped like `free`, an area id 0–255 per cell
        (default: every cell ground, `ord('.')`); `area_costs`: each area's cost multiplier
        or `"exclude"` (default: all 1, Moving AI water `W` excluded). Planning minimises
        length × cost and smoothing never raises the cost."""
    @staticmethod
    def from_movingai(
        path_or_text: Union[str, os.PathLike[str]],
        cell_size: float = 1.0,
        origin: _PointLike | None = None,
        area_costs: _AreaCosts | None = None,
    ) -> GridWorld:
        """A Moving AI `.map` file (a path), or its text (a str holding a newline); its
        swamp (`S`) and water (`W`) cells are areas, costed by `area_costs`."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def cell_size(self) -> float: ...
    @property
    def origin(self) -> Tuple[float, float]: ...

@final
class NavMeshWorld(_WorldQueries):
    """A navmesh from 2D convex polygons: `vertices` N×2, `polygons` lists of vertex
    indices (counter-clockwise or clockwise, convex); the free region is their union. The
    library's one navmesh world, a surface of one floor (z up, at height 0): a `Pipeline`
    on it takes 3D ends too (`plan3`, `floor_point`, `climb`), a `Crowd` gives
    `positions3`."""

    def __new__(
        cls,
        vertices: npt.ArrayLike,
        polygons: Sequence[Sequence[int]],
        areas: Sequence[int] | None = None,
        area_costs: _AreaCosts | None = None,
    ) -> NavMeshWorld:
        """`areas`: one area id 0–255 per polygon (Recast's; default 63); `area_costs`:
        each area id's cost multiplier or `"exclude"` (default: all 1)."""
    @staticmethod
    def from_surface(
        mesh: SurfaceMesh, area_costs: _AreaCosts | None = None
    ) -> NavMeshWorld:
        """A `SurfaceMesh` whose floors do not overlap (a Unity export, a one-floor bake)
        as a navmesh world of one floor, each polygon in its area, its heights kept; a mesh
        with a floor over another raises `Error`."""
    @property
    def num_polygons(self) -> int: ...

_World = Union[GridWorld, NavMeshWorld]

@final
class SurfaceMesh:
    """A 3D navmesh whose floors may overlap in plan view: `vertices` N×3, convex
    `polygons` of vertex indices, `up` "y" (plan view x, z) or "z" (plan view x, y),
    vertices closer than `weld` merged (None: the library's default, 1e-6 of the mesh's
    size; Unity-style meshes repeat them per triangle)."""

    def __new__(
        cls,
        vertices: npt.ArrayLike,
        polygons: Sequence[Sequence[int]],
        up: Literal["y", "z"] = "y",
        weld: float | None = None,
    ) -> SurfaceMesh: ...
    @staticmethod
    def load(
        path: Union[str, os.PathLike[str]],
        up: Literal["y", "z"] | None = None,
        weld: float | None = None,
        detail: Union[str, os.PathLike[str], None] = None,
    ) -> SurfaceMesh:
        """A navmesh file, its format found from its bytes: the navmesh JSON, Recast's and
        rerecast's JSON, Godot scenes (.tscn, .tres; 3D or 2D), Detour binaries, OBJ (Unity exports),
        polyanya .mesh. `up` only for OBJ and .mesh files (None: the file's own; y for
        those two); `detail` a second file with the detail mesh of a Recast or rerecast
        JSON poly mesh. Raises `Error` naming `SurfaceMesh.load` (a missing or malformed
        file, a bad weld...)."""
    @staticmethod
    def from_triangulation(
        vertices: npt.ArrayLike,
        indices: npt.ArrayLike,
        areas: npt.ArrayLike | None = None,
        weld: float | None = None,
    ) -> SurfaceMesh:
        """Unity's `NavMesh.CalculateTriangulation()` (y up): vertices N×3, indices three
        per triangle (flat or M×3 integers), areas one Unity area index (0–255) per
        triangle or None. Repeated vertices are welded, so the triangles join."""
    @property
    def num_polygons(self) -> int: ...
    @property
    def up(self) -> Literal["y", "z"]: ...
    @property
    def vertices(self) -> npt.NDArray[np.float64]:
        """The welded vertices, N×3."""
    @property
    def polygons(self) -> list[list[int]]:
        """Each polygon's indices into `vertices`, counter-clockwise in plan view."""
    @property
    def load_report(self) -> _LoadReport: ...
    @property
    def climb(self) -> float:
        """How far above or below a floor a point may be and still be on it: the bake's
        agent climb when the file says, else 0.25."""
    @property
    def pieces(self) -> npt.NDArray[np.uint32]:
        """Each polygon's connected piece: a walk joins two polygons iff equal."""
    @property
    def polygon_refs(self) -> npt.NDArray[np.uint64]:
        """Each polygon's reference in its file (Detour's dtPolyRef), else its input index."""
    def locate(
        self, points: npt.ArrayLike
    ) -> Tuple[npt.NDArray[np.uint32], npt.NDArray[np.float64]]:
        """Each row of `points` (N×3) located on the surface (Detour's findNearestPoly):
        `(polygons, points)`, the points on their polygons at their floor's height."""
    def move_along_surface(
        self, polygons: npt.ArrayLike, starts: npt.ArrayLike, targets: npt.ArrayLike
    ) -> Tuple[npt.NDArray[np.uint32], npt.NDArray[np.float64]]:
        """Each start (on its polygon) moved towards its target held to its floor, sliding
        along walls (Detour's moveAlongSurface): `(polygons, points)` as `locate`."""

_PipelineWorld = Union[GridWorld, NavMeshWorld, SurfaceMesh]
# A path on a surface: points N×3, the polygon of each (uint32), the flags of each (uint8).
_SurfacePath = Tuple[_Path2, npt.NDArray[np.uint32], npt.NDArray[np.uint8]]

@final
class Pipeline:
    """A world, an agent radius and steps: `preset` (default "smooth") or `steps`. The
    world is a `GridWorld`, a `NavMeshWorld` or a `SurfaceMesh` (a layered navmesh, whose
    floors may overlap in plan view); `climb` only on a navmesh.

    On every world `plan(start, goal)` takes 2D ends and returns an N×2 path in plan view
    (on a navmesh each end is located on the one floor under it, else an `Error`). On a
    navmesh `plan3(start, goal)` takes 3D ends and returns (points N×3, polygons,
    flags). Two names, not one `plan` whose result depends on its ends' length: a method's
    return type then follows from its name (an array's length is no type a checker sees),
    and a wrong-length point is an error rather than a result of another shape; the
    library's `plan` / `plan_surface` and the C ABI's `ps_pipeline_plan_f64` /
    `ps_pipeline_plan3_f64` split the same way. `smooth` on a SurfaceMesh smooths on the
    sheet of the last plan (the one-floor piece of the surface round its path): on a mesh
    with several floors an `Error` before any plan (a mesh with one floor is its own sheet).

    Calls on one pipeline run one at a time; `smooth_many` and `plan_many` run a batch in
    parallel, one pipeline copy per worker thread."""

    def __new__(
        cls,
        world: _PipelineWorld,
        radius: float,
        preset: _PresetName | None = None,
        steps: _Steps | None = None,
        climb: float | None = None,
    ) -> Pipeline:
        """`climb` (a navmesh's only; `Error` on a grid): how far above or below
        a floor an end may be and still be on it; None: the mesh's own (`SurfaceMesh.climb`)."""
    @property
    def world(self) -> _PipelineWorld: ...
    @property
    def radius(self) -> float: ...
    @property
    def steps(self) -> list[str]: ...
    @property
    def climb(self) -> float | None:
        """The climb given, or None."""
    @property
    def report(self) -> _Report:
        """What the last `plan`, `plan3` or `smooth` did."""
    def smooth(self, path: npt.ArrayLike) -> _Path2:
        """On a SurfaceMesh: on the sheet of the last plan (an `Error` before any)."""
    def plan(self, start: _PointLike, goal: _PointLike) -> _Path2:
        """2D ends; on a SurfaceMesh each on the one floor under it, the path in plan view."""
    def plan3(self, start: _PointLike, goal: _PointLike) -> _SurfacePath:
        """A navmesh's only: 3D ends; (points N×3 at their floor's height, polygon of
        each point, flags of each point: 1 start, 2 end, 4 a link's start, 8 a link's end)."""
    def floor_point(self, point: _PointLike) -> npt.NDArray[np.float64]:
        """A navmesh's only: the 3D point (length 3) of a plan-view point on the one
        floor under it, as `plan` locates its ends (within the pipeline's climb)."""
    def smooth_many(
        self, paths: Sequence[npt.ArrayLike], threads: int | None = None
    ) -> list[_Path2]: ...
    def plan_many(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, threads: int | None = None
    ) -> list[_Path2]:
        """N×2 starts and goals (plan view, on a SurfaceMesh too)."""

class _CrowdFrame(TypedDict):
    moved: int
    replans: int
    adjusted: int
    refused: int
    failed: int
    repaired: int
    stuck: int
    waiting: int

@final
class Crowd:
    """Agents walking their smooth paths on one world whose obstacles come and go: each
    `update(dt)` repairs the paths a new obstacle blocks, plans the new targets (at most
    `plan_budget` plans per update; a target the agent's path sees takes none) and walks every agent `speed × dt`, on `threads` threads
    (the same result for any number).

    The crowd owns a copy of `world`: obstacles added through the crowd change the crowd's
    world only, not the `GridWorld` / `NavMeshWorld` object given. Calls run one at a time.

    On a `SurfaceMesh` with one floor (no floor over another) the agents walk its plan view
    (the two axes across its up axis) and `positions3` puts them on its floor. On one with
    floors over one another (a bridge, storeys) agents are placed and sent in 3D
    (`add_agent`, `set_target` with 3D points): each walks the one-floor sheet round its own
    path, and agents whose floors are 2 or more apart never meet. Obstacles lie on one
    floor (`floor=`: a 3D point inside the shape; a moving one's, a height); an agent
    takes an off-mesh link over time, one agent on a link at a time (`crossing`).
    """

    def __new__(
        cls,
        world: _World | SurfaceMesh,
        radius: float,
        preset: _PresetName | None = None,
        steps: _Steps | None = None,
        threads: int = 1,
        plan_budget: int | None = None,
        avoid: bool | _AvoidSettings | None = None,
        speed_profile: bool | _SpeedProfile | None = None,
    ) -> Crowd:
        """`avoid=True`: the agents avoid one another, the walls and the moving obstacles
        (ORCA, the library's `Avoidance::default()`); a dict instead sets some of its
        settings and keeps the defaults of the others: `time_horizon` (seconds ahead
        neighbours are avoided, default 2), `max_neighbours` (the nearest this many, 10),
        `wall_time_horizon` (seconds ahead walls are kept off, 1), `neighbour_distance`
        (how far neighbours are looked for; None: as far as the time horizon reaches). A
        bad value raises `Error` naming it; an unknown name raises `ValueError`.

        `speed_profile=True`: the agents keep the follower's motion limits (the library's
        `follow::Agent::default()`: speed up at most 4 units/s², brake at 6, 4 sideways in
        bends): they start from rest, slow before bends, stop at turns sharper than
        `stop_angle` and brake to stand at their goals; a dict sets some limits (names
        as `follow::Agent`'s fields, angles in radians). Without it each agent walks at its
        speed from its first update to its goal."""
    @property
    def radius(self) -> float: ...
    def __len__(self) -> int: ...
    def add_agent(
        self,
        position: _PointLike,
        target: _PointLike,
        speed: float,
        radius: float | None = None,
    ) -> int:
        """Its index; its path is planned now, for the crowd's radius or its own `radius`
        (its path keeps that far off walls, avoidance the sum of two radii off others). On
        a navmesh the points may be 3D, in the mesh's axes (located on the surface); on a
        `SurfaceMesh` with floors over one another they must be."""
    def remove_agent(self, agent: int) -> int | None:
        """The last agent takes the removed one's index: returns the index it had (None
        when the removed one was the last)."""
    def radii(self) -> npt.NDArray[np.float64]:
        """Every agent's radius, in agent order."""
    def set_target(self, agent: int, target: _PointLike) -> None:
        """Planned by the next `update`; a target it refuses (NaN, in a wall, unreachable)
        keeps the old one, and `error` says why. On a navmesh a 3D target is planned now
        across the surface (`Error` when refused); on a `SurfaceMesh` with floors over one
        another a 2D one is planned on the floor of the agent's own path."""
    def update(self, dt: float) -> _CrowdFrame: ...
    def positions(self) -> _Path2:
        """N×2, one row per agent."""
    def positions3(self) -> npt.NDArray[np.float64]:
        """On a crowd made on a navmesh (a `NavMeshWorld` or a `SurfaceMesh`): N×3 in the
        mesh's axes, each agent on its floor (`ValueError` on a grid's crowd)."""
    def path(self, agent: int) -> _Path2:
        """From the agent's position to its target (its position alone while stuck)."""
    def stuck(self, agent: int) -> str | None:
        """Why the agent is stuck (the library's message), or None."""
    def error(self, agent: int) -> str | None:
        """The last error an update met for the agent (a refused target), or None."""
    def waiting(self, agent: int) -> bool:
        """A new target waits to be planned (the plan budget was spent)."""
    def arrived(self, agent: int) -> bool: ...
    def giving_way(self, agent: int) -> int | None:
        """The agent this one gives way to, or None: head-on in a passage too narrow for
        both (with avoidance), it walks to a spot off the other's path, waits until the
        other has passed (at most 10 s), and walks on to its target; `arrived` is False
        meanwhile."""
    def crossing(self, agent: int) -> Tuple[int, float] | None:
        """On a crowd made on a `SurfaceMesh`: (the off-mesh link the agent is on its way
        over, the part of the way behind it from 0 to 1), or None. It walks to the link's
        entry and over the link to where it lands at its speed, one agent on a link at a
        time; `positions` and `positions3` give where it is on the way, and its `path` is
        already the one from the landing. `arrived` is False meanwhile."""
    def add_box(
        self, min: _PointLike, max: _PointLike, floor: _Point3Like | None = None
    ) -> Tuple[int, int]:
        """(obstacle id, agents' paths it blocks).

        An agent it lands on is pushed out to the nearest point with room it could slide
        to without crossing a wall; one walled in is stuck until the obstacle goes. On a
        SurfaceMesh it lies on the one floor under it (refused where floors overlap under
        it), or with `floor=(x, y, z)` on the floor under that point; agents whose way it
        blocks are stuck until it goes."""
    def add_disk(
        self, center: _PointLike, radius: float, floor: _Point3Like | None = None
    ) -> Tuple[int, int]: ...
    def add_polygon(
        self, points: npt.ArrayLike, floor: _Point3Like | None = None
    ) -> Tuple[int, int]:
        """A convex polygon, N×2."""
    def add_cells(self, cells: npt.ArrayLike) -> Tuple[int, int]:
        """Grid cells, N×2 integers (column, row); `Error` on a navmesh."""
    def remove_obstacle(self, obstacle_id: int) -> None: ...
    def velocities(self) -> _Path2:
        """N×2, each agent's velocity over the last update."""
    def add_moving_obstacle(
        self,
        center: _PointLike,
        radius: float,
        velocity: _PointLike,
        floor: float | None = None,
    ) -> int:
        """A disc moved by `velocity × dt` every update; avoiding agents keep clear of it;
        while its velocity is zero it blocks like an obstacle. Its id. On a crowd across
        floors, `floor` (a height along the mesh's up axis) puts it on that floor: only
        the agents on it avoid it, and stopped it stands there (`Error` elsewhere)."""
    def set_moving_obstacle_floor(self, obstacle_id: int, floor: float) -> None:
        """The height of the floor it drives on now (a crowd across floors)."""
    def set_moving_obstacle_velocity(self, obstacle_id: int, velocity: _PointLike) -> None:
        """Its velocity from now on (zero stops it: it stands); ends a route it drove."""
    def drive_moving_obstacle(
        self, obstacle_id: int, route: npt.ArrayLike, speed: float, looped: bool = False
    ) -> None:
        """Drives it along `route` (N×2) at `speed`, each point in turn: round again when
        `looped`, else it stops at the last point and stands there."""
    def remove_moving_obstacle(self, obstacle_id: int) -> None: ...
    def moving_obstacles(
        self,
    ) -> list[Tuple[int, Tuple[float, float], float, Tuple[float, float]]]:
        """(id, (x, y), radius, (vx, vy)) each, in the order added."""

def smooth_many(
    pipeline: Pipeline, paths: Sequence[npt.ArrayLike], threads: int | None = None
) -> list[_Path2]:
    """`pipeline.smooth_many(paths, threads)`: None is one thread per core."""

def plan_many(
    pipeline: Pipeline, starts: npt.ArrayLike, goals: npt.ArrayLike, threads: int | None = None
) -> list[_Path2]: ...
def validate(world: _World, path: npt.ArrayLike, radius: float) -> _Validation: ...
def metrics(path: npt.ArrayLike) -> _Metrics:
    """Length and turning of an N×2 or N×3 path."""
