"""The README's Python quick start (run by the pytest suite)."""

import numpy as np

import pathsmooth

# A game's own occupancy grid, indexed [row, column]: 0.5 m cells, a block of wall in the
# middle. Row 0 is at the origin's y; y grows with the row index.
rows = ["............", "............", "............", "....####....",
        "....####....", "............", "............", "............"]
free = np.array([[c == "." for c in row] for row in rows])
world = pathsmooth.GridWorld(free, cell_size=0.5, origin=(0.0, 0.0))

# The game's A* path (cell centres, in metres) hugs the wall; the agent is 0.4 m wide.
cells = [(1, 4), (2, 3), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2), (9, 3), (10, 3)]
astar = np.array(cells, dtype=float) * 0.5 + 0.25

pipeline = pathsmooth.Pipeline(world, radius=0.4, preset="smooth")
smooth = pipeline.smooth(astar)            # N×2 float64, valid for the radius
assert pipeline.report["min_clearance"] >= 0.4
planned = pipeline.plan((0.75, 0.75), (5.25, 3.25))  # find a path, then smooth it
print(len(smooth), "points,", round(pathsmooth.metrics(smooth)["length"], 3), "m;",
      "skipped steps:", pipeline.report["skipped"])

# A crowd: agents walking their smooth paths while obstacles come and go. The crowd owns a
# copy of the world; a door added through it changes the crowd's world only.
crowd = pathsmooth.Crowd(world, radius=0.2, threads=2)
a = crowd.add_agent((0.25, 0.25), (5.75, 3.75), speed=1.5)
door, blocked = crowd.add_box((2.0, 0.0), (2.5, 1.5))   # (its id, paths it blocks)
for _ in range(100):
    frame = crowd.update(0.1)                # counts: moved, replans, repaired, stuck, ...
crowd.remove_obstacle(door)
assert crowd.arrived(a) and crowd.stuck(a) is None
print("crowd:", crowd.positions().tolist())
