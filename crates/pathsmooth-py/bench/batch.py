"""`smooth_many` throughput with 1 and 2 threads on one batch: 400 A* paths (radius 0.4)
of the 512×512 map random512-10-0's scenarios, smoothed by the "smooth" preset.

    python crates/pathsmooth-py/bench/batch.py
"""

import timeit

from common import movingai, scenarios

import pathsmooth

MAP = "random/random512-10-0.map"
RADIUS = 0.4


def main():
    world = pathsmooth.GridWorld.from_movingai(movingai(MAP))
    scen = scenarios(MAP + ".scen")
    pairs = scen[:: max(1, len(scen) // 400)][:400]
    paths = [world.find_path(s, g, RADIUS) for s, g in pairs]
    pipeline = pathsmooth.Pipeline(world, RADIUS, preset="smooth")
    loop = timeit.Timer(lambda: [pipeline.smooth(p) for p in paths])
    best = min(loop.repeat(repeat=5, number=1))
    print(f"{len(paths)} paths ({sum(len(p) for p in paths)} points); "
          f"a loop of smooth: {len(paths) / best:.0f} paths/s")
    for threads in (1, 2):
        t = timeit.Timer(lambda: pipeline.smooth_many(paths, threads=threads))
        best = min(t.repeat(repeat=5, number=1))
        print(f"smooth_many threads={threads}: {len(paths) / best:.0f} paths/s "
              f"({best * 1e3:.1f} ms per batch)")


if __name__ == "__main__":
    main()
