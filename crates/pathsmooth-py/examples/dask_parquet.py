"""Cleaning many recorded tracks with Dask: `pathsmooth` mapped over a Parquet dataset's
partitions, no scheduler of our own.

The dataset is long-format Parquet: one row per recorded point, columns `track` (an id),
`x`, `y` (world units), rows of a track consecutive and in order, each track within one
partition. Each partition is a pandas DataFrame; `smooth_partition` groups it by track,
turns each into an N×2 array and smooths the batch with `Pipeline.smooth_many` (the GIL
released, in parallel on the worker's threads); the result has the same columns. A world is
built once per worker process (its distance field is the expensive part) and kept.

    pip install "dask[distributed]" pyarrow pandas    # besides pathsmooth
    python examples/dask_parquet.py MAP.map TRACKS_DIR OUT_DIR [RADIUS]

`tests/test_dask.py` makes noisy tracks on a Moving AI map, writes them as Parquet in four
partitions, runs `clean` on a local cluster of two worker processes and checks every
track against a plain loop of `Pipeline.smooth`.
"""

import functools
import sys

import numpy as np
import pandas as pd

import pathsmooth

COLUMNS = {"track": "int64", "x": "float64", "y": "float64"}


@functools.lru_cache(maxsize=4)
def pipeline_for(map_path: str, radius: float, preset: str) -> pathsmooth.Pipeline:
    """One pipeline per (map, radius, preset) and worker process, built on first use."""
    world = pathsmooth.GridWorld.from_movingai(map_path)
    return pathsmooth.Pipeline(world, radius, preset=preset)


def smooth_partition(df: pd.DataFrame, map_path: str, radius: float,
                     preset: str = "smooth", threads: int = 1) -> pd.DataFrame:
    """Every track of one partition smoothed: the same columns, new rows."""
    if df.empty:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in COLUMNS.items()})
    pipeline = pipeline_for(map_path, radius, preset)
    ids, paths = [], []
    for track, rows in df.groupby("track", sort=False):
        ids.append(track)
        paths.append(rows[["x", "y"]].to_numpy(dtype=np.float64))
    smoothed = pipeline.smooth_many(paths, threads=threads)
    return pd.DataFrame({
        "track": np.repeat(np.asarray(ids, dtype=np.int64), [len(p) for p in smoothed]),
        "x": np.concatenate([p[:, 0] for p in smoothed]),
        "y": np.concatenate([p[:, 1] for p in smoothed]),
    })


def clean(tracks_dir: str, out_dir: str, map_path: str, radius: float,
          preset: str = "smooth") -> None:
    """Reads the dataset, smooths every partition on the current Dask scheduler (a
    `dask.distributed.Client` if one is open) and writes the result as Parquet."""
    import dask.dataframe as dd

    tracks = dd.read_parquet(tracks_dir)
    meta = pd.DataFrame({c: pd.Series(dtype=t) for c, t in COLUMNS.items()})
    out = tracks.map_partitions(smooth_partition, map_path, radius, preset, meta=meta)
    out.to_parquet(out_dir, write_index=False)


def main(argv):
    from dask.distributed import Client, LocalCluster

    map_path, tracks_dir, out_dir = argv[1:4]
    radius = float(argv[4]) if len(argv) > 4 else 0.3
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        clean(tracks_dir, out_dir, map_path, radius)


if __name__ == "__main__":
    main(sys.argv)
