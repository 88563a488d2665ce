// The library in a Web Worker: the page posts { id, job, args } and gets { id, result } or
// { id, error } back, so long work never freezes the page; to cancel, the page terminates
// this worker and starts another (WebAssembly cannot be interrupted from outside).
import init, { GridWorld, Pipeline, SurfaceMesh, SurfaceQuery, Crowd } from "../index.js";

const ready = init();
const meshes = new Map(); // name → SurfaceMesh, loaded once per worker

const jobs = {
  /** A path on a Moving AI map: { map, radius, preset, from: [x, y], to: [x, y] }. */
  grid({ map, radius, preset, from, to }) {
    const world = GridWorld.fromMovingAi(map);
    const pipeline = new Pipeline(world, radius, preset);
    const path = pipeline.plan(from[0], from[1], to[0], to[1]);
    return { path, report: pipeline.report() };
  },
  /** A 3D path on a navmesh file's bytes: { name, bytes, preset, from: [x, y, z], to }. */
  layered({ name, bytes, preset, from, to }) {
    if (!meshes.has(name)) meshes.set(name, SurfaceMesh.load(new Uint8Array(bytes), name));
    const mesh = meshes.get(name);
    const found = preset === "query"
      ? new SurfaceQuery(mesh).findPath(...from, ...to)
      : new Pipeline(mesh, 0, preset).plan3(...from, ...to);
    return { points: found.points, polygons: found.polygons, flags: found.flags };
  },
  /** A crowd on an open grid for `frames` frames: { size, agents, frames }. */
  crowd({ size, agents, frames }) {
    const world = new GridWorld(new Uint8Array(size * size).fill(1), size, size, 1, 0, 0);
    const crowd = new Crowd(world, 0.4, "smooth", { avoid: true });
    const c = size / 2;
    for (let i = 0; i < agents; i++) {
      const a = (2 * Math.PI * i) / agents;
      const r = size * 0.4;
      crowd.addAgent(c + r * Math.cos(a), c + r * Math.sin(a), c - r * Math.cos(a), c - r * Math.sin(a), 1.5);
    }
    for (let f = 0; f < frames; f++) crowd.update(1 / 30);
    const arrived = [...Array(agents).keys()].filter((i) => crowd.arrived(i)).length;
    return { positions: crowd.positions(), radii: crowd.radii(), arrived };
  },
};

self.onmessage = async ({ data: { id, job, args } }) => {
  try {
    // Inside the try: a module that failed to load answers every job with its error.
    await ready;
    self.postMessage({ id, result: jobs[job](args) });
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
};
