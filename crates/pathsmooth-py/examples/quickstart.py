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
