"""What the Python benches share: the Moving AI data and a scenario reader."""

from pathlib import Path

CRATE = Path(__file__).resolve().parents[1]


def movingai(rel: str) -> Path:
    """A Moving AI file in the repository's `data/movingai/`."""
    return CRATE.parents[1] / "data" / "movingai" / rel


def scenarios(rel: str):
    """(start, goal) cell centres of a `.scen` file, in the file's order (by length)."""
    out = []
    for line in movingai(rel).read_text().splitlines()[1:]:
        f = line.split("\t")
        if len(f) >= 8:
            sx, sy, gx, gy = (int(v) for v in f[4:8])
            out.append(((sx + 0.5, sy + 0.5), (gx + 0.5, gy + 0.5)))
    return out
