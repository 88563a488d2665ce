"""Item 4 of the bindings issue: `pathsmooth` mapped over a Parquet dataset's partitions
with Dask on a local cluster (`examples/dask_parquet.py`). CI installs dask, distributed,
pyarrow and pandas; elsewhere the test skips without them (in CI, with `CI` set, it fails)."""

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import pathsmooth

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "examples"))
sys.path.insert(0, str(HERE))

from test_pathsmooth import REFERENCE, bits, movingai  # noqa: E402

if not os.environ.get("CI"):
    for module in ("dask.dataframe", "distributed", "pyarrow", "pandas"):
        pytest.importorskip(module)

import pandas as pd  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

import dask_parquet  # noqa: E402


def noisy_tracks(world, n, rng):
    """`n` recorded tracks: A* paths with room 0.6, three points per cell step, each point
    moved by up to 0.15 in x and y (so every point keeps clearance ≥ 0.45)."""
    free = [(x + 0.5, y + 0.5) for y in range(world.height) for x in range(world.width)
            if world.clearance((x + 0.5, y + 0.5)) >= 0.6]
    tracks = []
    while len(tracks) < n:
        a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
        try:
            path = world.find_path(a, b, 0.6)
        except pathsmooth.Error:
            continue  # no way with that room
        if len(path) < 4:
            continue
        t = np.linspace(0, len(path) - 1, 3 * (len(path) - 1) + 1)
        dense = np.stack([np.interp(t, np.arange(len(path)), path[:, k]) for k in (0, 1)], 1)
        dense[1:-1] += rng.uniform(-0.15, 0.15, dense[1:-1].shape)
        tracks.append(dense)
    return tracks


def test_dask_maps_smooth_over_parquet_partitions(tmp_path):
    map_path = str(movingai(REFERENCE["map"]))
    radius = 0.3
    world = pathsmooth.GridWorld.from_movingai(map_path)
    tracks = noisy_tracks(world, 40, np.random.default_rng(29))
    src, out = tmp_path / "tracks", tmp_path / "smooth"
    src.mkdir()
    for part in range(4):  # four partitions, each track within one
        ids = [i for i in range(len(tracks)) if i % 4 == part]
        pd.DataFrame({
            "track": np.repeat(np.array(ids, dtype=np.int64), [len(tracks[i]) for i in ids]),
            "x": np.concatenate([tracks[i][:, 0] for i in ids]),
            "y": np.concatenate([tracks[i][:, 1] for i in ids]),
        }).to_parquet(src / f"part.{part}.parquet", index=False)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        dask_parquet.clean(str(src), str(out), map_path, radius)

    got = pd.read_parquet(out)
    pipeline = pathsmooth.Pipeline(world, radius, preset="smooth")
    assert sorted(got["track"].unique()) == list(range(len(tracks)))
    for i, track in enumerate(tracks):
        rows = got[got["track"] == i][["x", "y"]].to_numpy()
        assert bits(rows) == bits(pipeline.smooth(track)), f"track {i}"
        assert pathsmooth.validate(world, rows, radius)["valid"]
