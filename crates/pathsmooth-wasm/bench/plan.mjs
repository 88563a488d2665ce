// The WebAssembly build against the native library, the same plans in one run: random ends
// (fixed seed) on a Detour bake (the layered query, presets shortest and smooth) and on a
// Moving AI map (the grid, smooth). The native half is the crate's example
// `native_timing` (built in release). The anchor: recast-navigation-js (Detour compiled to
// WebAssembly, from npm) on the same bake and ends, `NavMeshQuery.computePath` (nearest
// polygons, Detour's A* over polygons, string pulling). Run after `npm run build`:
//   cargo build --release -p pathsmooth-wasm --example native_timing && node bench/plan.mjs
import init, * as ps from "../index.js";
import * as recast from "@recast-navigation/core";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { inside as insidePolygon, random } from "../test/draw.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const BAKE = join(repo, "crates/pathsmooth/tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin");
const MAP = join(repo, "data/movingai/dao/arena.map");
const NATIVE = process.env.NATIVE_TIMING ?? join(repo, "target/release/examples/native_timing");
const ROUNDS = 50;
await init();

/** Mean microseconds of one `plan(i)` over ROUNDS rounds of every pair, after a pass over
 *  them (`tierUp`: passes for a second, so that V8 has compiled the hot functions with its
 *  optimising tier, as a page that plans for more than a moment runs them). */
function time(pairs, plan, tierUp = false) {
  const warm = performance.now();
  do for (let i = 0; i < pairs.length; i++) plan(i);
  while (tierUp && performance.now() - warm < 1000);
  const t = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < pairs.length; i++) plan(i);
  return ((performance.now() - t) * 1000) / (ROUNDS * pairs.length);
}

const attempt = (f) => {
  try {
    f();
  } catch {
    // Two islands: timed as the native half times its failed plans.
  }
};

// Ends on the bake: random points inside random polygons.
const mesh = ps.SurfaceMesh.load(readFileSync(BAKE), "dungeon.all_tiles_navmesh.bin");
const [v, idx, counts] = [mesh.vertices(), mesh.polygonIndices(), mesh.polygonCounts()];
const rings = [];
for (let p = 0, at = 0; p < counts.length; at += counts[p], p++) {
  rings.push([...idx.subarray(at, at + counts[p])].map((i) => [v[3 * i], v[3 * i + 1], v[3 * i + 2]]));
}
const rand = random(2026);
const inside = () => insidePolygon(rings, rand);
const surfacePairs = Array.from({ length: 200 }, () => [...inside(), ...inside()]);

// Ends on the map: centres of open cells.
const text = readFileSync(MAP, "utf8");
const rows = text.split("\n").slice(4).filter((r) => r.length > 0);
const cell = () => {
  for (;;) {
    const [x, y] = [Math.floor(rand() * rows[0].length), Math.floor(rand() * rows.length)];
    if (rows[y][x] === ".") return [x + 0.5, y + 0.5];
  }
};
const gridPairs = Array.from({ length: 200 }, () => [...cell(), ...cell()]);
const grid = ps.GridWorld.fromMovingAi(text);

// Each workload: its pairs, its WebAssembly plan and the native half's header. The query
// alone runs on all pairs, then on the pairs it joins and on those it cannot (a failed
// query throws an Error, whose making in the JavaScript engine is a fixed cost that the
// native half, where an error is a value, does not pay).
const query = new ps.SurfaceQuery(mesh);
const joins = (q) => {
  try {
    query.findPath(...q).free();
    return true;
  } catch {
    return false;
  }
};
const found = surfacePairs.filter(joins);
const unreachable = surfacePairs.filter((q) => !joins(q));
const pipelines = {
  shortest: new ps.Pipeline(mesh, 0, "shortest"),
  smooth: new ps.Pipeline(mesh, 0, "smooth"),
  grid: new ps.Pipeline(grid, 0.4, "smooth"),
};
const workloads = [
  ["Detour bake shortest", "surface", BAKE, "shortest", surfacePairs, (q) => pipelines.shortest.plan3(...q)],
  ["Detour bake smooth", "surface", BAKE, "smooth", surfacePairs, (q) => pipelines.smooth.plan3(...q)],
  ["arena.map smooth", "grid", MAP, "smooth", gridPairs, (q) => pipelines.grid.plan(...q)],
  ["query alone, all", "query", BAKE, "shortest", surfacePairs, (q) => query.findPath(...q).free()],
  ["query alone, found", "query", BAKE, "shortest", found, (q) => query.findPath(...q).free()],
  ["query alone, unreachable", "query", BAKE, "shortest", unreachable, (q) => query.findPath(...q).free()],
  // The call that answers `undefined` where findPath throws: no Error made.
  ["tryFindPath, all", "query", BAKE, "shortest", surfacePairs, (q) => query.tryFindPath(...q)?.free()],
  ["tryFindPath, unreachable", "query", BAKE, "shortest", unreachable, (q) => query.tryFindPath(...q)?.free()],
];
/** The native half's mean microseconds for one workload (a process of its own). */
function native([, kind, file, preset, pairs]) {
  const input = `${kind} ${file} ${preset} ${ROUNDS} ${pairs.length}\n${pairs.map((q) => q.join(" ")).join("\n")}\n`;
  return Number(execFileSync(NATIVE, { input, encoding: "utf8" }).trim().split(" ")[2]);
}
// recast-navigation-js on the same bake and ends: its answer counted when it found a path
// (Detour returns a partial path towards an unreachable goal).
await recast.init();
const { navMesh } = recast.importNavMesh(new Uint8Array(readFileSync(BAKE)));
const detour = new recast.NavMeshQuery(navMesh);
const xyz = (q, at) => ({ x: q[at], y: q[at + 1], z: q[at + 2] });
const computePath = (i) => detour.computePath(xyz(surfacePairs[i], 0), xyz(surfacePairs[i], 3));

// The two halves alternate, workload by workload, REPS times; each side keeps its best
// time: this shared machine's speed drifts by a quarter within a minute, and interference
// only ever adds time. The ratio is of the best times; the spread of the REPS ratios is
// printed beside it.
const REPS = 5;
const best = workloads.map(() => ({ wasm: Infinity, native: Infinity, ratios: [] }));
let detourBest = Infinity;
for (let rep = 0; rep < REPS; rep++) {
  workloads.forEach((w, k) => {
    const pairs = w[4];
    const wasm = time(pairs, (i) => attempt(() => w[5](pairs[i])), rep === 0);
    const nat = native(w);
    best[k].wasm = Math.min(best[k].wasm, wasm);
    best[k].native = Math.min(best[k].native, nat);
    best[k].ratios.push(wasm / nat);
  });
  detourBest = Math.min(detourBest, time(surfacePairs, computePath, rep === 0));
}
console.log(`best of ${REPS} alternating runs of each side; µs per plan`);
console.log("workload                          native      wasm   wasm/native   (each run's ratio)");
workloads.forEach(([name, , , , pairs], k) => {
  const b = best[k];
  const spread = `${Math.min(...b.ratios).toFixed(2)}–${Math.max(...b.ratios).toFixed(2)}`;
  console.log(
    `${`${name} (${pairs.length})`.padEnd(30)} ${b.native.toFixed(1).padStart(9)} ${b.wasm.toFixed(1).padStart(9)} ` +
      `${(b.wasm / b.native).toFixed(2).padStart(13)}   (${spread})`,
  );
});
const all = best[3].wasm;
console.log(
  `recast-navigation-js computePath on the bake (${surfacePairs.length}): ${detourBest.toFixed(1)} µs/path; ` +
    `pathsmooth's query alone in WebAssembly takes ${(all / detourBest).toFixed(2)} of it`,
);
