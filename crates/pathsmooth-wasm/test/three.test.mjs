// The three.js example (examples/three/) in headless Chromium with WebGL (SwiftShader, no
// GPU needed): it draws, two real mouse clicks on the canvas plan a path that lies on the
// navmesh and equals the native library's plan, and its crowd walks without overlapping,
// inside the navmesh. The oracles here read the level's OBJ file themselves. Needs
// `npm run build` first.
//   CHROMIUM        the browser (default: /usr/bin/chromium)
//   PATHSMOOTH_BIN  the native CLI (default: target/debug/pathsmooth)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crate, nativeBin, repo, serveAndLaunch } from "./serve.mjs";

const LEVEL = "crates/pathsmooth/tests/data/corpus/unity/lear315__LayaNavMesh.obj";
// WebGL with no GPU: ANGLE on SwiftShader, the CPU renderer Chromium ships. Since Chromium
// 137 it is used for WebGL only with --enable-unsafe-swiftshader (playwright-core passes it
// too); --use-angle=swiftshader asks for it outright rather than after GPU probing.
const WEBGL_FLAGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

/** The OBJ's triangles in plan view (x, z) with their heights (y): [[x, z, y] × 3]. */
function readObj(text) {
  const v = [];
  const tris = [];
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f[0] === "v") v.push([+f[1], +f[3], +f[2]]);
    if (f[0] === "f") {
      const idx = f.slice(1).map((s) => parseInt(s, 10) - 1);
      for (let k = 1; k + 1 < idx.length; k++) tris.push([v[idx[0]], v[idx[k]], v[idx[k + 1]]]);
    }
  }
  return tris;
}

/** The triangle's barycentric coordinates of plan point (x, z), or null when degenerate. */
function barycentric([a, b, c], x, z) {
  const d = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  if (Math.abs(d) < 1e-12) return null;
  const s = ((x - a[0]) * (c[1] - a[1]) - (z - a[1]) * (c[0] - a[0])) / d;
  const t = ((b[0] - a[0]) * (z - a[1]) - (b[1] - a[1]) * (x - a[0])) / d;
  return [1 - s - t, s, t];
}

/** Distance in plan view from (x, z) to the triangle (0 inside). */
function planDistance(tri, x, z) {
  const w = barycentric(tri, x, z);
  if (w && w.every((u) => u >= 0)) return 0;
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const [p, q] = [tri[i], tri[(i + 1) % 3]];
    const [dx, dz] = [q[0] - p[0], q[1] - p[1]];
    const u = Math.max(0, Math.min(1, ((x - p[0]) * dx + (z - p[1]) * dz) / (dx * dx + dz * dz)));
    best = Math.min(best, Math.hypot(x - p[0] - u * dx, z - p[1] - u * dz));
  }
  return best;
}

/** The heights of the navmesh's floors at plan point (x, z) (within `eps` of a triangle). */
function floorsAt(tris, x, z, eps = 1e-6) {
  const out = [];
  for (const tri of tris) {
    if (planDistance(tri, x, z) > eps) continue;
    const w = barycentric(tri, x, z);
    if (w) out.push(w[0] * tri[0][2] + w[1] * tri[1][2] + w[2] * tri[2][2]);
  }
  return out;
}

/** A point of a triangle at least `margin` from its edges (its incentre), or null. */
function inner(tri, margin) {
  const len = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);
  const [a, b, c] = tri;
  const [la, lb, lc] = [len(b, c), len(c, a), len(a, b)];
  const perimeter = la + lb + lc;
  const area = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
  if ((2 * area) / perimeter < margin) return null;
  const w = [la / perimeter, lb / perimeter, lc / perimeter];
  return [0, 1, 2].map((k) => w[0] * a[k] + w[1] * b[k] + w[2] * c[k]);
}

test("the three.js example draws a navmesh, plans between two clicks as the native library does, and walks a crowd", async (t) => {
  assert.ok(existsSync(join(crate, "pkg", "pathsmooth_wasm_bg.wasm")), "run `npm run build` first");
  assert.ok(existsSync(join(crate, "node_modules", "three", "build", "three.module.js")), "run `npm ci` first (three)");
  const tris = readObj(readFileSync(join(repo, LEVEL), "utf8"));
  const { server, browser } = await serveAndLaunch(t, ["--no-sandbox", "--disable-background-networking", ...WEBGL_FLAGS]);
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/crates/pathsmooth-wasm/examples/three/index.html`);
  await page.evaluate(() => window.example.ready);
  await page.evaluate(() => window.example.stillCamera());
  const example = (expr) => page.evaluate(`window.example.${expr}`);

  // (1) WebGL draws: the page has a WebGL context, it has drawn frames, and the canvas
  // shows the floor where a floor point projects and the background in a corner.
  const webgl = await example("webgl");
  assert.equal(webgl.ok, true, `WebGL: ${webgl.error}`);
  t.diagnostic(`WebGL renderer: ${webgl.renderer}`);
  const level = await example("level");
  assert.equal(level.name, "lear315__LayaNavMesh.obj");
  assert.equal(level.crowd, true, level.note);
  // Two floor points far apart (y ≈ 0.03, the maze's floor): incentres of floor triangles
  // with room round them, nearest two opposite corners of the level.
  const floor = tris.filter((tri) => tri.every((p) => p[2] < 0.5)).map((tri) => inner(tri, 0.6)).filter(Boolean);
  const nearest = (x, z) => floor.reduce((b, p) => (Math.hypot(p[0] - x, p[1] - z) < Math.hypot(b[0] - x, b[1] - z) ? p : b));
  const [from, to] = [nearest(-30, 30), nearest(30, -30)].map(([x, z, y]) => [x, y, z]);
  await page.waitForFunction(() => window.example.rendered >= 3);
  const [sx, sy] = await page.evaluate((p) => window.example.project(...p), from);
  const [gx, gy] = await page.evaluate((p) => window.example.project(...p), to);
  const pixels = await page.evaluate(
    (points) => {
      const gl = document.getElementById("view");
      const c = document.createElement("canvas");
      c.width = gl.width;
      c.height = gl.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(gl, 0, 0);
      const scale = gl.width / gl.clientWidth;
      const rect = gl.getBoundingClientRect();
      return points.map(([x, y]) => [...ctx.getImageData(Math.round((x - rect.left) * scale), Math.round((y - rect.top) * scale), 1, 1).data]);
    },
    [[sx, sy], [gx, gy], [2, 698]],
  );
  for (const [r, g, b] of pixels.slice(0, 2)) assert.ok(b > r + 40 && b > g + 20, `a floor pixel is blue: ${[r, g, b]}`);
  const background = [0x20, 0x24, 0x2b];
  assert.ok(background.every((c, k) => Math.abs(pixels[2][k] - c) <= 2), `the background in the corner: ${pixels[2]}`);

  // (2) Two real clicks: the path's ends are the raycast points, every vertex is on the
  // navmesh, and it equals the native CLI's plan between the same ends.
  await page.mouse.click(sx, sy);
  await page.mouse.click(gx, gy);
  const picks = await example("picks");
  assert.equal(picks.length, 2, await example("status()"));
  picks.forEach((p, i) => {
    const want = [from, to][i];
    assert.ok(Math.hypot(p[0] - want[0], p[2] - want[2]) < 0.2, `click ${i} at ${p}, aimed at ${want}`);
  });
  const path = await example("lastPath");
  assert.ok(path, `no path: ${await example("lastError")}`);
  const points = path.points;
  const n = points.length / 3;
  assert.ok(n >= 3, `a path through the maze has corners: ${n} points`);
  // The ends: the raycast points (the page gives them the height of the triangle hit, from
  // the mesh's double-precision vertices), to 1e-9.
  for (const [end, p] of [[points.slice(0, 3), picks[0]], [points.slice(-3), picks[1]]]) {
    assert.ok(end.every((x, k) => Math.abs(x - p[k]) < 1e-9), `the path's end ${end} is the click ${p}`);
  }
  for (let i = 0; i < n; i++) {
    const [x, y, z] = points.slice(3 * i, 3 * i + 3);
    const heights = floorsAt(tris, x, z);
    assert.ok(heights.some((h) => Math.abs(h - y) < 1e-4), `point ${i} (${x}, ${y}, ${z}) is on no triangle (floors ${heights})`);
  }
  const bin = nativeBin();
  const native = bin !== null;
  if (native) {
    const file = join(mkdtempSync(join(tmpdir(), "pathsmooth-three-")), "path.json");
    execFileSync(bin, ["plan", "--navmesh", join(repo, LEVEL), "--preset", "smooth", "--from", picks[0].join(","), "--to", picks[1].join(","), "--output", file], { stdio: "ignore" });
    const theirs = JSON.parse(readFileSync(file, "utf8")).points.flatMap((p) => p.position);
    assert.equal(theirs.length, points.length, "as many points as the native library's");
    theirs.forEach((x, i) => assert.ok(Math.abs(x - points[i]) < 1e-9, `coordinate ${i}: ${points[i]} vs ${x}`));
  } else {
    t.diagnostic(`no native binary at ${bin}: the comparison with the CLI was skipped`);
  }

  // (3) The crowd: after 60 more frames the agents have moved, no two overlap by more than
  // 1% of their radii's sum, every agent is inside the navmesh in plan view and is drawn
  // standing on its floor (on a triangle of the OBJ, at its height there).
  const before = await example("agentPositions()");
  const radii = await example("agentRadii()");
  const start = await example("frames");
  await page.waitForFunction((f) => window.example.frames >= f + 60, start, { timeout: 60_000 });
  // One frame's positions and drawing together (no update between the two reads).
  const [after, drawn] = await page.evaluate(() => [window.example.agentPositions(), window.example.drawnAgents()]);
  assert.equal(drawn.length, 3 * radii.length);
  for (let i = 0; i < radii.length; i++) {
    const [x, y, z] = drawn.slice(3 * i, 3 * i + 3);
    // A matrix holds float32s: agreement to 1e-4 at coordinates of tens.
    assert.ok(Math.abs(x - after[2 * i]) < 1e-4 && Math.abs(z - after[2 * i + 1]) < 1e-4, `agent ${i} drawn at (${x}, ${z}), walking at (${after.slice(2 * i, 2 * i + 2)})`);
    const heights = floorsAt(tris, x, z);
    assert.ok(heights.some((h) => Math.abs(h - y) < 1e-4), `agent ${i} drawn at height ${y}, the floors there at ${heights}`);
  }
  assert.equal(after.length, 2 * radii.length);
  assert.ok(radii.length >= 24, `${radii.length} agents`);
  const moved = radii.filter((r, i) => Math.hypot(after[2 * i] - before[2 * i], after[2 * i + 1] - before[2 * i + 1]) > r).length;
  t.diagnostic(`path: ${n} points; crowd: ${moved} of ${radii.length} agents moved over 60 frames`);
  assert.ok(moved >= 0.75 * radii.length, `${moved} of ${radii.length} agents moved more than their radius`);
  for (let i = 0; i < radii.length; i++) {
    const [x, z] = [after[2 * i], after[2 * i + 1]];
    assert.ok(floorsAt(tris, x, z).length > 0, `agent ${i} at (${x}, ${z}) is off the navmesh`);
    for (let j = i + 1; j < radii.length; j++) {
      const gap = Math.hypot(x - after[2 * j], z - after[2 * j + 1]);
      assert.ok(gap >= 0.99 * (radii[i] + radii[j]), `agents ${i} and ${j} ${gap} apart`);
    }
  }
  assert.deepEqual(problems, []);
});
