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

/** Mean microseconds of one `plan(i)` over ROUNDS rounds of every pair, after a warm-up. */
function time(pairs, plan) {
  const warm = performance.now();
  do for (let i = 0; i < pairs.length; i++) plan(i);
  while (performance.now() - warm < 1000);
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

const workloads = [
  ["surface", BAKE, "shortest", surfacePairs, () => new ps.Pipeline(mesh, 0, "shortest"), (p, q) => p.plan3(...q)],
  ["surface", BAKE, "smooth", surfacePairs, () => new ps.Pipeline(mesh, 0, "smooth"), (p, q) => p.plan3(...q)],
  ["grid", MAP, "smooth", gridPairs, () => new ps.Pipeline(grid, 0.4, "smooth"), (p, q) => p.plan(...q)],
];
let stdin = "";
const wasm = [];
for (const [kind, file, preset, pairs, make, plan] of workloads) {
  const pipeline = make();
  wasm.push(time(pairs, (i) => attempt(() => plan(pipeline, pairs[i]))));
  stdin += `${kind} ${file} ${preset} ${ROUNDS} ${pairs.length}\n${pairs.map((q) => q.join(" ")).join("\n")}\n`;
}
// recast-navigation-js on the same bake and ends: its answer counted when it found a path
// (Detour returns a partial path towards an unreachable goal).
await recast.init();
const { navMesh } = recast.importNavMesh(new Uint8Array(readFileSync(BAKE)));
const detour = new recast.NavMeshQuery(navMesh);
const xyz = (q, at) => ({ x: q[at], y: q[at + 1], z: q[at + 2] });
const query = new ps.SurfaceQuery(mesh);
const findPath = (q) => attempt(() => query.findPath(...q).free());
// The query alone on all pairs, then on the pairs it joins and on those it cannot (a failed
// query throws an Error, whose making in the JavaScript engine is a fixed cost natively absent).
const found = surfacePairs.filter((q) => {
  try {
    query.findPath(...q).free();
    return true;
  } catch {
    return false;
  }
});
const unreachable = surfacePairs.filter((q) => !found.includes(q));
const querySets = [
  ["all", surfacePairs],
  ["found", found],
  ["unreachable", unreachable],
];
const queryTimes = querySets.map(([, pairs]) => time(pairs, (i) => findPath(pairs[i])));
const detourTime = time(surfacePairs, (i) => detour.computePath(xyz(surfacePairs[i], 0), xyz(surfacePairs[i], 3)));

// The layered query alone, natively: how much of a plan is the search.
for (const [, pairs] of querySets) {
  stdin += `query ${BAKE} shortest ${ROUNDS} ${pairs.length}\n${pairs.map((q) => q.join(" ")).join("\n")}\n`;
}
const native = execFileSync(NATIVE, { input: stdin, encoding: "utf8" })
  .trim()
  .split("\n")
  .map((line) => Number(line.split(" ")[2]));
console.log(`recast-navigation-js computePath on the bake (${surfacePairs.length}): ${detourTime.toFixed(1)} µs/path`);
querySets.forEach(([name, pairs], k) => {
  const [n, w] = [native[workloads.length + k], queryTimes[k]];
  console.log(
    `the layered query alone (SurfaceQuery, radius 0), ${name} (${pairs.length}): native ${n.toFixed(1)} µs/path, ` +
      `wasm ${w.toFixed(1)} (${(w / n).toFixed(2)}×)` +
      (name === "all" ? `, wasm/recast-navigation-js ${(w / detourTime).toFixed(2)}` : ""),
  );
});
console.log("workload                     native µs/plan   wasm µs/plan   wasm/native");
workloads.forEach(([kind, , preset, pairs], k) => {
  const name = `${kind === "surface" ? "Detour bake" : "arena.map"} ${preset} (${pairs.length})`;
  console.log(
    `${name.padEnd(28)} ${native[k].toFixed(1).padStart(14)} ${wasm[k].toFixed(1).padStart(14)} ${(wasm[k] / native[k]).toFixed(2).padStart(13)}`,
  );
});
