#!/usr/bin/env bash
# Re-bakes the navmeshes in crates/pathsmooth/tests/data/navmesh/ from the level geometry in
# levels/ and prints each file's counts and plan-view overlaps (see that folder's SOURCES.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p pathsmooth-bake
bake=target/release/pathsmooth-bake
levels=crates/pathsmooth-bake/levels
out=crates/pathsmooth/tests/data/navmesh
src="recastnavigation/recastnavigation@9f4ce64458dfae86e1239c525ddc219c4e9e06f1 RecastDemo/Bin/Meshes"
for level in dungeon nav_test; do
  # RecastDemo's default settings (agent radius 0.6: the walkable area is eroded by 0.6).
  "$bake" "$levels/$level.obj" -o "$out/$level.navmesh.json" --source "$src/$level.obj" \
    $([ "$level" = dungeon ] && echo --rerecast-json crates/pathsmooth/tests/data/rerecast/dungeon)
  # The same without erosion: the polygons reach the walls (for radius-aware smoothing).
  "$bake" "$levels/$level.obj" -o "$out/$level.r0.navmesh.json" --source "$src/$level.obj" \
    --agent-radius 0
done
# rerecast's C++ reference configuration for the dungeon: a 5-cell border and four convex area
# volumes (areas 1-4); its poly mesh equals C++ Recast's (rerecast's tests/reference_data/dungeon).
"$bake" "$levels/dungeon.obj" -o "$out/dungeon.areas.navmesh.json" --source "$src/dungeon.obj" \
  --border-size 5 --volumes "$levels/dungeon.volumes.json"
