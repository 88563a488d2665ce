// The npm package as a user gets it: `npm pack`'s tarball installed into an empty Node
// project, where a script loads a navmesh that Detour wrote and plans on it; then the
// package's classes on real maps and bakes, random ends from a fixed seed, each result
// judged by an oracle written here (and, for the bake, by the native library's own
// answer, `pathsmooth plan`, when the binary is there: under CI it must be).
//
// Needs `npm run build` first (pkg/). Run: `npm test`.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { inside as insidePolygon, random } from "./draw.mjs";
import { crate, nativeBin, repo } from "./serve.mjs";

const DETOUR_BAKE = join(repo, "crates/pathsmooth/tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin");
const ARENA = join(repo, "data/movingai/dao/arena.map");

let project; // the empty project the tarball is installed into
let ps; // the installed package

before(async () => {
  assert.ok(existsSync(join(crate, "pkg", "pathsmooth_wasm_bg.wasm")), "run `npm run build` first");
  project = mkdtempSync(join(tmpdir(), "pathsmooth-npm-"));
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", project], { cwd: crate, encoding: "utf8" }),
  );
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", join(project, packed[0].filename)], { cwd: project });
  ps = await import(pathToFileURL(join(project, "node_modules", "pathsmooth", "index.js")).href);
  await ps.default();
});

/** Points every `step` along the polyline `flat` ([x0, y0, x1, y1, …]). */
function* samples(flat, step = 0.02) {
  for (let i = 0; i + 3 < flat.length; i += 2) {
    const [ax, ay, bx, by] = [flat[i], flat[i + 1], flat[i + 2], flat[i + 3]];
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / step));
    for (let k = 0; k <= n; k++) yield [ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n];
  }
}

/** A surface's polygons as plan-view rings with their heights, from the mesh's own arrays. */
function surfacePolygons(mesh) {
  const [v, idx, counts] = [mesh.vertices(), mesh.polygonIndices(), mesh.polygonCounts()];
  const up = mesh.up === "y" ? 1 : 2;
  const plan = up === 1 ? [0, 2] : [0, 1];
  const polygons = [];
  let at = 0;
  for (const n of counts) {
    const ring = [];
    for (let k = 0; k < n; k++) {
      const i = idx[at + k] * 3;
      ring.push({ p: [v[i + plan[0]], v[i + plan[1]]], h: v[i + up], xyz: [v[i], v[i + 1], v[i + 2]] });
    }
    polygons.push(ring);
    at += n;
  }
  return { polygons, plan, up };
}

/**
 * The plan-view pieces of a 3D path that are walked on the mesh: the path cut where it
 * takes an off-mesh link (from a point flagged 4, a link's start, to the next, flagged 8),
 * whose straight jump is no walk on a polygon.
 */
function walked(points, flags, plan) {
  const pieces = [[]];
  for (let i = 0; i < flags.length; i++) {
    pieces[pieces.length - 1].push(points[3 * i + plan[0]], points[3 * i + plan[1]]);
    if (flags[i] & 4) pieces.push([]);
  }
  return pieces;
}

/** Whether the plan-view point lies in the convex ring (either winding), within eps. */
function inConvex(ring, [x, y], eps = 1e-6) {
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i].p;
    const [bx, by] = ring[(i + 1) % ring.length].p;
    const cross = ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / (Math.hypot(bx - ax, by - ay) || 1);
    if (Math.abs(cross) <= eps) continue;
    const s = Math.sign(cross);
    if (sign !== 0 && s !== sign) return false;
    sign = s;
  }
  return true;
}

test("a script in an empty project loads a Detour bake and plans on it, as the native library does", () => {
  writeFileSync(
    join(project, "plan.mjs"),
    `import init, { SurfaceMesh, Pipeline } from "pathsmooth";
import { readFileSync } from "node:fs";
await init();
const mesh = SurfaceMesh.load(readFileSync(process.argv[2]), process.argv[2]);
const pipeline = new Pipeline(mesh, 0, "smooth");
const [sx, sy, sz, gx, gy, gz] = process.argv.slice(3).map(Number);
const path = pipeline.plan3(sx, sy, sz, gx, gy, gz);
console.log(JSON.stringify({ points: Array.from(path.points), flags: Array.from(path.flags) }));
`,
  );
  const mesh = ps.SurfaceMesh.load(readFileSync(DETOUR_BAKE), "dungeon.all_tiles_navmesh.bin");
  const { polygons, plan, up } = surfacePolygons(mesh);
  const bin = nativeBin();
  const native = bin !== null;
  // Ends: random points inside random polygons (a convex combination of its corners).
  const rand = random(42);
  const corners = polygons.map((ring) => ring.map((c) => c.xyz));
  const inside = () => insidePolygon(corners, rand);
  // The native answer for the same ends: its path's coordinates, or its error.
  const nativePlan = (s, g, trial) => {
    const file = join(project, `native-${trial}.json`);
    try {
      execFileSync(bin, [
        "plan", "--navmesh", DETOUR_BAKE, "--preset", "smooth",
        "--from", s.join(","), "--to", g.join(","), "--output", file,
      ], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    } catch (e) {
      return { error: e.stderr };
    }
    return { points: JSON.parse(readFileSync(file, "utf8")).points.flatMap((p) => p.position) };
  };
  let planned = 0;
  let failed = 0;
  for (let trial = 0; trial < 16; trial++) {
    const [s, g] = [inside(), inside()];
    let out;
    try {
      out = execFileSync(process.execPath, ["plan.mjs", DETOUR_BAKE, ...s, ...g], {
        cwd: project,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      const message = e.stderr.match(/Error: Pipeline\.plan3: (.*)/)?.[1];
      assert.ok(message, e.stderr);
      if (/cannot be reached/.test(message)) continue; // two islands of the bake
      // Any other refusal must be the native library's too (and is a bug: routes over this
      // bake's off-mesh connections failed so until their snapped ends moved inside their
      // polygons, crates/pathsmooth/tests/navmesh_detour_links.rs).
      failed += 1;
      if (native) assert.ok(nativePlan(s, g, trial).error?.includes(message), `native planned where wasm failed: ${message}`);
      continue;
    }
    const { points, flags } = JSON.parse(out);
    planned += 1;
    // The ends are the ones asked for; every point and every segment lies on the mesh.
    assert.ok(Math.hypot(points[0] - s[0], points[2] - s[2]) < 1e-6, "start");
    const n = points.length;
    assert.ok(Math.hypot(points[n - 3] - g[0], points[n - 1] - g[2]) < 1e-6, "goal");
    for (const piece of walked(points, flags, plan)) {
      for (const q of samples(piece, 0.05)) {
        assert.ok(polygons.some((ring) => inConvex(ring, q, 1e-6)), `(${q}) is on no polygon`);
      }
    }
    for (let i = 0; i < n; i += 3) {
      const q = [points[i + plan[0]], points[i + plan[1]]];
      const h = points[i + up];
      const under = polygons.filter((ring) => inConvex(ring, q, 1e-6));
      // The height is the detail mesh's, which Detour lets rise or fall from the polygon's
      // corners (by 0.15 here): within half a metre of their range.
      const near = under.some((ring) => {
        const hs = ring.map((c) => c.h);
        return h >= Math.min(...hs) - 0.5 && h <= Math.max(...hs) + 0.5;
      });
      assert.ok(near, `point ${i / 3} at height ${h} lies on none of the ${under.length} polygons under it: ${JSON.stringify(under.map((r) => r.map((c) => c.h)))}`);
    }
    if (native) {
      const theirs = nativePlan(s, g, trial).points;
      assert.ok(theirs, "the native library failed where wasm planned");
      assert.equal(theirs.length, points.length, "as many points as the native library's");
      theirs.forEach((x, i) => assert.ok(Math.abs(x - points[i]) < 1e-9, `coordinate ${i}: ${points[i]} vs ${x}`));
    }
  }
  assert.ok(planned >= 6, `only ${planned} of 16 random pairs planned (${failed} failed)`);
  assert.equal(failed, 0, `${failed} of 16 random pairs failed other than unreachable`);
});

test("the layered query alone: on the mesh, and never longer than the pipeline's shortest path", () => {
  const mesh = ps.SurfaceMesh.load(readFileSync(DETOUR_BAKE), "dungeon.all_tiles_navmesh.bin");
  const { polygons, plan } = surfacePolygons(mesh);
  const query = new ps.SurfaceQuery(mesh);
  const shortest = new ps.Pipeline(mesh, 0, "shortest");
  const rand = random(9);
  const corners = polygons.map((ring) => ring.map((c) => c.xyz));
  const inside = () => insidePolygon(corners, rand);
  const planLength = (points) => {
    let length = 0;
    for (let i = 3; i < points.length; i += 3) {
      length += Math.hypot(points[i + plan[0]] - points[i - 3 + plan[0]], points[i + plan[1]] - points[i - 3 + plan[1]]);
    }
    return length;
  };
  let compared = 0;
  for (let trial = 0; trial < 40; trial++) {
    const ends = [...inside(), ...inside()];
    let found;
    try {
      found = query.findPath(...ends);
    } catch (e) {
      assert.match(e.message, /^SurfaceQuery\.findPath: .*cannot be reached/);
      // The call that does not throw: no path, and the same words.
      assert.equal(query.tryFindPath(...ends), undefined);
      assert.equal(query.lastError, e.message);
      continue;
    }
    // ... and where there is one, the same path.
    const tried = query.tryFindPath(...ends);
    assert.deepEqual([...tried.points], [...found.points]);
    assert.deepEqual([...tried.polygons], [...found.polygons]);
    assert.equal(query.lastError, undefined);
    tried.free();
    const points = found.points;
    assert.equal(points.length, 3 * found.polygons.length);
    for (const piece of walked(points, found.flags, plan)) {
      for (const q of samples(piece, 0.05)) {
        assert.ok(polygons.some((ring) => inConvex(ring, q, 1e-6)), `(${q}) is on no polygon`);
      }
    }
    const piped = shortest.plan3(...ends).points;
    compared += 1;
    assert.ok(planLength(points) <= planLength(piped) + 1e-6, `${planLength(points)} > ${planLength(piped)}`);
  }
  assert.ok(compared >= 15, `only ${compared} of 40 compared`);
});

test("moves along the surface: located, held to their polygons and floors, never farther from the target", () => {
  const mesh = ps.SurfaceMesh.load(readFileSync(DETOUR_BAKE), "dungeon.all_tiles_navmesh.bin");
  const { polygons, plan, up } = surfacePolygons(mesh);
  const corners = polygons.map((ring) => ring.map((c) => c.xyz));
  const query = new ps.SurfaceQuery(mesh);
  const rand = random(11);
  const flat = (q) => [q[plan[0]], q[plan[1]]];
  let own = 0;
  for (let trial = 0; trial < 400; trial++) {
    const s = insidePolygon(corners, rand);
    const at = query.locate(...s);
    const start = [at.x, at.y, at.z];
    // Kept in plan view, exactly, on a polygon holding it.
    assert.deepEqual(flat(start), flat(s));
    assert.ok(inConvex(polygons[at.polygon], flat(start)), `${s} not in ${at.polygon}`);
    const step = [0, 1, 2].map((axis) => (axis === up ? 0 : (rand() - 0.5) * 2));
    const target = start.map((c, axis) => c + step[axis]);
    const moved = query.moveAlongSurface(at.polygon, ...start, ...target);
    const q = [moved.x, moved.y, moved.z];
    assert.ok(inConvex(polygons[moved.polygon], flat(q)), `${q} not in ${moved.polygon}`);
    assert.equal(query.visited[0], at.polygon);
    assert.ok(query.visited.includes(moved.polygon));
    const [t, f] = [flat(target), flat(start)];
    const d = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    assert.ok(d(flat(q), t) <= d(f, t) + 1e-9, `moved away from ${t}`);
    // The floor kept: no storey's jump (the step is at most 1.5 across, the bake's climb 0.9).
    assert.ok(Math.abs(q[up] - start[up]) <= 0.9 + 2 * d(f, t), `from height ${start[up]} to ${q[up]}`);
    if (polygons[at.polygon].length && inConvex(polygons[at.polygon], t, -1e-6)) {
      assert.deepEqual([moved.polygon, ...flat(q)], [at.polygon, ...t]);
      own += 1;
    }
  }
  assert.ok(own > 40, `only ${own} targets in their start's polygon`);
  assert.throws(() => query.moveAlongSurface(polygons.length, 0, 0, 0, 1, 0, 1), /^Error: SurfaceQuery\.moveAlongSurface: /);
  assert.throws(() => query.locate(1e4, 0, 1e4), /^Error: SurfaceQuery\.locate: /);
  mesh.free();
});

test("every navmesh of the engine corpus loads from its bytes, and a path on it stays on it", () => {
  const corpus = join(repo, "crates/pathsmooth/tests/data/corpus");
  const rows = readFileSync(join(corpus, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  const rand = random(5);
  let loaded = 0;
  let planned = 0;
  for (const [file, format, up, polygonsIn] of rows) {
    if (format === "polyanya-scen" || format === "other") continue;
    const plain = format === "polyanya-mesh" || format === "unity-obj" || format === "obj";
    const mesh = ps.SurfaceMesh.load(readFileSync(join(corpus, file)), file, plain ? up : undefined);
    loaded += 1;
    // Duplicates and slivers are dropped, never polygons added.
    assert.ok(mesh.numPolygons > 0 && mesh.numPolygons <= Number(polygonsIn), `${file}: ${mesh.numPolygons} of ${polygonsIn}`);
    assert.equal(mesh.up, up, file);
    const { polygons, plan } = surfacePolygons(mesh);
    const corners = polygons.map((ring) => ring.map((c) => c.xyz));
    const inside = () => insidePolygon(corners, rand);
    const query = new ps.SurfaceQuery(mesh);
    for (let trial = 0; trial < 5; trial++) {
      let found;
      try {
        found = query.findPath(...inside(), ...inside());
      } catch (e) {
        assert.match(e.message, /^SurfaceQuery\.findPath: /, file);
        continue;
      }
      planned += 1;
      for (const piece of walked(found.points, found.flags, plan)) {
        for (const q of samples(piece, 0.05)) {
          assert.ok(polygons.some((ring) => inConvex(ring, q, 1e-6)), `${file}: (${q}) is on no polygon`);
        }
      }
    }
    mesh.free();
  }
  assert.equal(loaded, rows.filter((r) => r[1] !== "polyanya-scen" && r[1] !== "other").length);
  assert.ok(planned >= loaded, `only ${planned} paths over ${loaded} meshes`);
});

test("a crowd walks every one-floor navmesh of the engine corpus, on its floor and apart; a layered one is refused", () => {
  const corpus = join(repo, "crates/pathsmooth/tests/data/corpus");
  const rows = readFileSync(join(corpus, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  const rand = random(11);
  const [walkedOn, refused] = [[], []];
  for (const [file, format, up] of rows) {
    if (format === "polyanya-scen" || format === "other") continue;
    const plain = format === "polyanya-mesh" || format === "unity-obj" || format === "obj";
    const mesh = ps.SurfaceMesh.load(readFileSync(join(corpus, file)), file, plain ? up : undefined);
    let crowd;
    try {
      crowd = new ps.Crowd(mesh, 0.1, "smooth", { avoid: true });
    } catch (e) {
      assert.match(e.message, /^new Crowd: this SurfaceMesh has floors over one another/, file);
      refused.push(file);
      mesh.free();
      continue;
    }
    const { polygons, plan } = surfacePolygons(mesh);
    const corners = polygons.map((ring) => ring.map((c) => c.xyz));
    const inPlan = (xyz) => [xyz[plan[0]], xyz[plan[1]]];
    // Agents from random points of random polygons to others; a point without room for
    // the radius is refused, and another drawn.
    for (let k = 0; k < 60 && crowd.length < 8; k++) {
      const [start, goal] = [inPlan(insidePolygon(corners, rand)), inPlan(insidePolygon(corners, rand))];
      const p = crowd.positions(); // not inside another agent: spawned overlapping, they would start so
      if ([...Array(crowd.length).keys()].some((i) => Math.hypot(p[2 * i] - start[0], p[2 * i + 1] - start[1]) < 0.25)) continue;
      try {
        crowd.addAgent(...start, ...goal, 1.5);
      } catch (e) {
        assert.match(e.message, /^Crowd\.addAgent: /, file);
      }
    }
    assert.ok(crowd.length > 0, `${file}: no agent could be placed`);
    const radii = crowd.radii();
    const heightAxis = up === "y" ? 1 : 2;
    for (let frame = 1; frame <= 100; frame++) {
      crowd.update(0.05);
      if (frame % 10 !== 0) continue;
      const [p, p3] = [crowd.positions(), crowd.positions3()];
      for (let i = 0; i < crowd.length; i++) {
        const at = [p[2 * i], p[2 * i + 1]];
        const xyz = [p3[3 * i], p3[3 * i + 1], p3[3 * i + 2]];
        assert.deepEqual(inPlan(xyz), at, `${file}: agent ${i}'s 3D point is over its plan position`);
        // On the mesh: over one of its polygons, within the heights of its corners (a detail
        // mesh may rise or fall between them; half a unit allowed).
        const under = polygons.filter((ring) => inConvex(ring, at, 1e-6));
        assert.ok(under.length > 0, `${file} frame ${frame}: agent ${i} at (${at}) is over no polygon`);
        const h = xyz[heightAxis];
        const onFloor = (ring) => h >= Math.min(...ring.map((c) => c.h)) - 0.5 && h <= Math.max(...ring.map((c) => c.h)) + 0.5;
        assert.ok(under.some(onFloor), `${file} frame ${frame}: agent ${i} at height ${h}, off the polygons under it`);
        for (let j = i + 1; j < crowd.length; j++) {
          const gap = Math.hypot(at[0] - p[2 * j], at[1] - p[2 * j + 1]);
          assert.ok(gap >= 0.99 * (radii[i] + radii[j]) - 1e-9, `${file} frame ${frame}: agents ${i} and ${j} ${gap} apart`);
        }
      }
    }
    walkedOn.push(file);
    crowd.free();
    mesh.free();
  }
  console.error(`crowds walked on ${walkedOn.length} one-floor navmeshes; ${refused.length} layered ones refused`);
  // The corpus has both kinds (a test that only refused, or never refused, proves less).
  assert.ok(walkedOn.length >= 5 && refused.length >= 2, `walked on ${walkedOn}; refused ${refused}`);
  assert.throws(() => new ps.Crowd(ps.GridWorld.fromMovingAi(readFileSync(ARENA, "utf8")), 0.3).positions3(), /^Error: Crowd\.positions3: only a crowd made on a navmesh/);
});

test("a Recast poly mesh with its detail mesh in a second file", () => {
  const dir = join(repo, "crates/pathsmooth/tests/data/recast");
  const poly = readFileSync(join(dir, "dungeon.poly_mesh.json"));
  const flat = ps.SurfaceMesh.load(poly, "dungeon.poly_mesh.json");
  const detailed = ps.SurfaceMesh.load(poly, "dungeon.poly_mesh.json", undefined, readFileSync(join(dir, "dungeon.poly_mesh_detail.json")));
  assert.equal(detailed.numPolygons, flat.numPolygons);
  assert.throws(
    () => ps.SurfaceMesh.load(readFileSync(DETOUR_BAKE), "d.bin", undefined, new Uint8Array([1])),
    /^Error: SurfaceMesh\.load: /,
  );
});

test("the .wasm stays within its 1.5 MB budget", () => {
  // docs/wasm.md: each build's size and speed, and what to do when this fails.
  const bytes = readFileSync(join(project, "node_modules", "pathsmooth", "pkg", "pathsmooth_wasm_bg.wasm")).length;
  assert.ok(bytes <= 1_500_000, `${bytes} bytes`);
});

test("paths on a Moving AI map keep the agent's radius off every blocked cell", () => {
  const text = readFileSync(ARENA, "utf8");
  const rows = text.split("\n").slice(4).filter((r) => r.length > 0);
  const [w, h] = [rows[0].length, rows.length];
  const open = (x, y) => x >= 0 && y >= 0 && x < w && y < h && ".G".includes(rows[y][x]);
  const world = ps.GridWorld.fromMovingAi(text);
  assert.deepEqual([world.width, world.height], [w, h]);
  const radius = 0.4;
  const pipeline = new ps.Pipeline(world, radius, "smooth");
  const rand = random(7);
  const cell = () => {
    for (;;) {
      const [x, y] = [Math.floor(rand() * w), Math.floor(rand() * h)];
      // A cell whose neighbours are all open: room for the agent at its centre.
      if ([-1, 0, 1].every((dx) => [-1, 0, 1].every((dy) => open(x + dx, y + dy)))) return [x + 0.5, y + 0.5];
    }
  };
  let planned = 0;
  for (let trial = 0; trial < 25; trial++) {
    const [s, g] = [cell(), cell()];
    let path;
    try {
      path = pipeline.plan(s[0], s[1], g[0], g[1]);
    } catch (e) {
      assert.match(e.message, /^Pipeline\.plan: .*(cannot be reached|unreachable)/i);
      continue;
    }
    planned += 1;
    assert.ok(path instanceof Float64Array);
    assert.deepEqual([path[0], path[1]], s);
    assert.deepEqual([path[path.length - 2], path[path.length - 1]], g);
    for (const [x, y] of samples(path)) {
      for (let cy = Math.floor(y) - 2; cy <= Math.floor(y) + 2; cy++) {
        for (let cx = Math.floor(x) - 2; cx <= Math.floor(x) + 2; cx++) {
          if (open(cx, cy)) continue;
          const d = Math.hypot(Math.max(cx - x, 0, x - cx - 1), Math.max(cy - y, 0, y - cy - 1));
          assert.ok(d >= radius - 1e-6, `(${x}, ${y}) is ${d} from blocked cell (${cx}, ${cy})`);
        }
      }
    }
    assert.equal(pipeline.report().validation.valid, true);
  }
  assert.ok(planned >= 20, `only ${planned} of 25 planned`);
});

test("a navmesh of 2D polygons: paths stay in the room and off its pillars by the radius", () => {
  // A 20 × 10 room with pillars [5, 6] × [3, 7] and [13, 14] × [3, 7], cut into rectangles.
  const xs = [0, 5, 6, 13, 14, 20];
  const ys = [0, 3, 7, 10];
  const vertices = [];
  const id = (i, j) => j * xs.length + i;
  for (const y of ys) for (const x of xs) vertices.push(x, y);
  const indices = [];
  const counts = [];
  for (let j = 0; j + 1 < ys.length; j++) {
    for (let i = 0; i + 1 < xs.length; i++) {
      if (j === 1 && (i === 1 || i === 3)) continue; // the pillars
      indices.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
      counts.push(4);
    }
  }
  const world = new ps.NavMeshWorld(new Float64Array(vertices), new Uint32Array(indices), new Uint32Array(counts));
  assert.equal(world.numPolygons, 13);
  const clearance = ([x, y]) => {
    const pillar = (x0, x1) => Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(3 - y, 0, y - 7));
    return Math.min(x, 20 - x, y, 10 - y, pillar(5, 6), pillar(13, 14));
  };
  const radius = 0.3;
  for (const steps of ["shortest", "smooth", "corridor", ["shortcut", ["fillet", 1.0]]]) {
    const pipeline = new ps.Pipeline(world, radius, steps);
    const rand = random(3);
    for (let trial = 0; trial < 20; trial++) {
      const end = () => {
        for (;;) {
          const q = [rand() * 20, rand() * 10];
          if (clearance(q) > radius + 0.01) return q;
        }
      };
      const [s, g] = [end(), end()];
      const path = pipeline.plan(s[0], s[1], g[0], g[1]);
      for (const q of samples(path)) {
        assert.ok(clearance(q) >= radius - 1e-6, `${JSON.stringify(steps)}: (${q}) is ${clearance(q)} from a wall`);
      }
      // Smoothing the planned path again keeps it valid too.
      for (const q of samples(pipeline.smooth(path))) assert.ok(clearance(q) >= radius - 1e-6);
      // One navmesh world: 3D ends on the floor at height 0 (z up) plan the same path.
      const lifted = pipeline.plan3(s[0], s[1], 0, g[0], g[1], 0);
      const flat = pipeline.plan(s[0], s[1], g[0], g[1]);
      assert.deepEqual(Array.from(lifted.points).filter((_, i) => i % 3 !== 2), Array.from(flat));
      assert.ok(lifted.points.every((v, i) => i % 3 !== 2 || v === 0));
    }
  }
  // A crowd on it walks the floor at height 0.
  const crowd = new ps.Crowd(world, radius);
  crowd.addAgent(2, 2, 18, 8, 1.5);
  crowd.update(0.5);
  const [x, y, z] = crowd.positions3();
  assert.deepEqual([x, y], Array.from(crowd.positions()));
  assert.equal(z, 0);
});

test("a crowd of agents swapping across a circle never overlaps and everyone arrives", () => {
  const free = new Uint8Array(30 * 30).fill(1);
  const world = new ps.GridWorld(free, 30, 30, 1, 0, 0);
  const crowd = new ps.Crowd(world, 0.5, "smooth", { avoid: true });
  const n = 10;
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const [cx, cy, r] = [15, 15, 10];
    crowd.addAgent(cx + r * Math.cos(a), cy + r * Math.sin(a), cx - r * Math.cos(a), cy - r * Math.sin(a), 1.5);
  }
  assert.equal(crowd.length, n);
  const radii = crowd.radii();
  let worst = Infinity;
  for (let frame = 0; frame < 600; frame++) {
    crowd.update(0.05);
    const p = crowd.positions();
    assert.equal(p.length, 2 * n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const gap = Math.hypot(p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]) / (radii[i] + radii[j]);
        worst = Math.min(worst, gap);
      }
    }
  }
  assert.ok(worst >= 0.99, `two agents came within ${worst} of the sum of their radii`);
  const arrived = [...Array(n).keys()].filter((i) => crowd.arrived(i)).length;
  assert.equal(arrived, n, `${arrived} of ${n} arrived in 30 s`);
});

test("avoidance settings by name reach the crowd: the defaults spelt out walk the same, a short horizon otherwise", () => {
  const free = new Uint8Array(24 * 12).fill(1);
  const world = new ps.GridWorld(free, 24, 12, 1, 0, 0);
  const walk = (avoid) => {
    const crowd = new ps.Crowd(world, 0.3, "smooth", { avoid });
    crowd.addAgent(1.5, 6.5, 22.5, 6.5, 1.5);
    crowd.addAgent(22.5, 6.5, 1.5, 6.5, 1.5);
    for (let frame = 0; frame < 600; frame++) crowd.update(1 / 60);
    return Array.from(crowd.positions());
  };
  const byDefault = walk(true);
  const spelt = { timeHorizon: 2, maxNeighbours: 10, wallTimeHorizon: 1, neighbourDistance: null };
  assert.deepEqual(walk(spelt), byDefault);
  const late = walk({ timeHorizon: 0.25 });
  assert.notDeepEqual(late, byDefault);
  assert.ok(Math.hypot(late[0] - late[2], late[1] - late[3]) >= 0.99 * 0.6);
});

test("bad input is a JavaScript Error with the library's message, and the module goes on", () => {
  const free = new Uint8Array(100).fill(1);
  const world = new ps.GridWorld(free, 10, 10);
  const pipeline = new ps.Pipeline(world, 0.3);
  const crowd = new ps.Crowd(world, 0.3);
  crowd.addAgent(1.5, 1.5, 8.5, 8.5, 1);
  const detached = new Float64Array(new ArrayBuffer(32));
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  const cases = [
    [() => new ps.GridWorld(new Uint8Array(3), 2, 2), /^new GridWorld: free holds 3 cells/],
    [() => new ps.GridWorld(free, -1, 10), /^new GridWorld: width = -1/],
    [() => new ps.GridWorld(free, 1e6, 1e6), /^new GridWorld: free holds 100 cells/],
    [() => new ps.GridWorld(free, 10, 10, NaN), /^new GridWorld: /],
    [() => new ps.NavMeshWorld(new Float64Array([0, 0, 1, 0, 0]), new Uint32Array(0), new Uint32Array(0)), /x, y pairs/],
    [() => new ps.NavMeshWorld(new Float64Array([0, 0, 1, 0, 0, 1]), new Uint32Array([0, 1, 7]), new Uint32Array([3])), /^new NavMeshWorld: /],
    [() => new ps.NavMeshWorld(new Float64Array(0), new Uint32Array([0]), new Uint32Array([2])), /counts add up to 2/],
    [() => new ps.Pipeline({}, 1), /expected a GridWorld, a NavMeshWorld or a SurfaceMesh/],
    [() => new ps.Pipeline(world, NaN), /^new Pipeline: /],
    [() => new ps.Pipeline(world, 0.3, "nope"), /unknown preset `nope`/],
    [() => new ps.Pipeline(world, 0.3, [["fillet", -1]]), /^new Pipeline: step 0: /],
    [() => new ps.Pipeline(world, 0.3, "smooth", 1.0), /climb is a navmesh's only/],
    [() => pipeline.plan(NaN, 1, 5, 5), /^Pipeline\.plan: .*NaN/],
    [() => pipeline.plan(1, 1, Infinity, 5), /^Pipeline\.plan: /],
    [() => pipeline.plan(-50, 1, 5, 5), /^Pipeline\.plan: /],
    [() => pipeline.smooth(new Float64Array([1, 2, 3])), /got 3 numbers/],
    // A detached buffer is refused by the glue itself (a TypeError), before the module.
    [() => pipeline.smooth(detached), /detached/],
    [() => pipeline.smooth(new Float64Array([1, 1, NaN, 2])), /^Pipeline\.smooth: /],
    [() => pipeline.plan3(0, 0, 0, 1, 1, 1), /needs a navmesh world/],
    [() => ps.SurfaceMesh.load(new Uint8Array([0, 1, 2, 3])), /^SurfaceMesh\.load: /],
    [() => ps.SurfaceMesh.load(readFileSync(DETOUR_BAKE).subarray(0, 200)), /^SurfaceMesh\.load: /],
    [() => ps.SurfaceMesh.load(new TextEncoder().encode("mesh\n2\n1000000000 1000000000\n")), /^SurfaceMesh\.load: /],
    [() => ps.SurfaceMesh.load(new Uint8Array(0)), /^SurfaceMesh\.load: /],
    [() => ps.GridWorld.fromMovingAi("type octile\nheight 1000000\nwidth 1000000\nmap\n"), /^GridWorld\.fromMovingAi: /],
    [() => crowd.addAgent(NaN, 1, 2, 2, 1), /^Crowd\.addAgent: /],
    [() => crowd.addAgent(1.5, 1.5, 2, 2, -1), /^Crowd\.addAgent: /],
    [() => crowd.addAgent(1.5, 1.5, 2, 2, 1, Infinity), /^Crowd\.addAgent: /],
    [() => crowd.removeAgent(-1), /^Crowd\.removeAgent: agent = -1/],
    [() => crowd.setTarget(5, 1, 1), /^Crowd\.setTarget: agent = 5/],
    [() => crowd.update(NaN), /^Crowd\.update: /],
    [() => crowd.addMovingObstacle(5, 5, -1, 0, 0), /^Crowd\.addMovingObstacle: /],
    [() => crowd.addMovingObstacle(5, 5, 0, 0, 0), /^Crowd\.addMovingObstacle: /],
    [() => crowd.addMovingObstacle(5, 5, 1, NaN, 0), /^Crowd\.addMovingObstacle: /],
    [() => crowd.removeMovingObstacle(12345), /^Crowd\.removeMovingObstacle: /],
    [() => crowd.addDisk(5, 5, -2), /^Crowd\.addDisk: /],
    [() => new ps.Crowd(world, 0.3, "smooth", { avoid: { timeHorizon: 0 } }), /^new Crowd: .*time_horizon/],
    [() => new ps.Crowd(world, 0.3, "smooth", { avoid: { maxNeighbours: 1.5 } }), /^new Crowd: avoid\.maxNeighbours/],
    [() => new ps.Crowd(world, 0.3, "smooth", { avoid: { timeHorizon: "2" } }), /^new Crowd: avoid\.timeHorizon: expected a number/],
    [() => new ps.Crowd(world, 0.3, "smooth", { avoid: { horizon: 1 } }), /^new Crowd: avoid: no setting "horizon"/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), `${call}`);
  }
  // Still answering, with the same answer as before.
  const path = pipeline.plan(1.5, 1.5, 8.5, 8.5);
  assert.deepEqual(Array.from(path), [1.5, 1.5, 8.5, 8.5]);
  crowd.update(0.1);
  assert.ok(crowd.positions().every(Number.isFinite));
});
