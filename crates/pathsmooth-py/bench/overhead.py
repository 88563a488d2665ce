"""The cost of calling the pipeline from Python against calling it from Rust.

The same work as the criterion bench `grid/random/random512-10-0/pipeline_shortcut-chaikin/0.4`
(`crates/pathsmooth/benches/grid.rs`): the 4 longest scenarios of the 512×512 map
random512-10-0, each planned by the world's A* with room for radius 0.4, then smoothed by a
"smooth" pipeline (shortcut + map-aware Chaikin) at radius 0.4; one batch is the 4 smooths.

    maturin develop --release        # in crates/pathsmooth-py, inside a virtualenv
    python crates/pathsmooth-py/bench/overhead.py
    cargo run --release -p pathsmooth-py --example overhead     # the same, in Rust
    cargo bench -p pathsmooth --bench grid -- 'random512-10-0/pipeline_shortcut-chaikin/0.4'

The overhead is (Python time − Rust time) / Rust time; `python overhead.py RUST_US` prints
it for a Rust time in µs. Both scripts take the best of 15 repeats (criterion's mean moves
more with the load of a shared machine). Results: `docs/python.md`.
"""

import sys
import timeit

from common import movingai, scenarios

import pathsmooth

MAP = "random/random512-10-0.map"
RADIUS = 0.4


def main():
    world = pathsmooth.GridWorld.from_movingai(movingai(MAP))
    longest = scenarios(MAP + ".scen")[-4:]
    inputs = [world.find_path(s, g, RADIUS) for s, g in longest]
    pipeline = pathsmooth.Pipeline(world, RADIUS, preset="smooth")

    def batch():
        for path in inputs:
            pipeline.smooth(path)

    batch()
    timer = timeit.Timer(batch)
    number, _ = timer.autorange()
    best = min(timer.repeat(repeat=15, number=number)) / number
    print(f"python: {len(inputs)} smooths of {[len(p) for p in inputs]} points on {MAP}, "
          f"r={RADIUS}: {best * 1e6:.1f} µs per batch (best of 15 × {number})")
    # An upper bound of the fixed cost of one call (arguments in, array out, GIL released
    # and taken back, the pipeline's lock): a 2-point path, whose smoothing is next to
    # nothing.
    tiny = inputs[0][:2].copy()
    t = timeit.Timer(lambda: pipeline.smooth(tiny))
    number, _ = t.autorange()
    call = min(t.repeat(repeat=15, number=number)) / number
    print(f"python: one smooth of a 2-point path: {call * 1e6:.2f} µs "
          f"({100 * len(inputs) * call / best:.3f} % of the batch)")
    if len(sys.argv) > 1:
        rust = float(sys.argv[1]) * 1e-6
        print(f"rust (criterion, given): {rust * 1e6:.1f} µs; "
              f"overhead {100 * (best - rust) / rust:+.2f} %")


if __name__ == "__main__":
    main()
