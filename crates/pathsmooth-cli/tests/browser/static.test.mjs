// The static playground (`node crates/pathsmooth-playground-wasm/build.mjs` first) in headless
// Chromium, served by a plain static file server (crates/pathsmooth-wasm/test/serve.mjs: no
// pathsmooth binary serves it): the same page, its API answered by the playground in
// WebAssembly in a Web Worker. Every answer is checked against the native library's: the
// same request to `pathsmooth serve` (started here only as the reference), to 1e-9, on a
// grid (a world on offer and an uploaded map, its scenarios), on a layered navmesh (a
// bundled bake, and the same bake sent as JSON) and for a crowd, then on random requests
// (fixed seed: grid plans, layered plans and crowds, refusals compared too); the
// crowd is also checked by an oracle here (no overlaps beyond 1 % of the radii's sum, every
// agent on a free cell). A long crowd is cancelled while the page stays responsive and the
// next request answers; a live crowd is started, sent round by a click on the map and
// stopped (the same oracle on its frames; the native side has no live crowd: its equality
// with a run is the playground crate's test); bad input shows its error and the worker
// answers the next request.
//
//   PATHSMOOTH_BIN      the native CLI (default: target/release/pathsmooth, else target/debug/…)
//   PLAYGROUND_STATIC   the static build, inside the repository (default: target/playground-static)
//   CHROMIUM            the browser (default: /usr/bin/chromium)
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { chromium } from "playwright-core";
import { random } from "../../../pathsmooth-wasm/test/draw.mjs";
import { repo, serve } from "../../../pathsmooth-wasm/test/serve.mjs";
import { liveCrowdIsSentByAClick } from "./live.mjs";
import { startServer } from "./server.mjs";

const folder = resolve(process.env.PLAYGROUND_STATIC ?? join(repo, "target/playground-static"));
const MAP = "data/movingai/dao/arena.map";

/** The native reference: `pathsmooth serve` (ended after `t`); resolves to its URL. */
async function startReference(t) {
  const { child, url } = await startServer();
  t.after(() => child.kill());
  return url.slice(0, -1);
}

/** Asserts `ours` equals `theirs` (JSON values), numbers to 1e-9, timings (`micros`) aside. */
function assertSame(ours, theirs, at = "answer") {
  if (typeof theirs === "number") {
    assert.equal(typeof ours, "number", `${at}: ${JSON.stringify(ours)} vs ${theirs}`);
    assert.ok(Math.abs(ours - theirs) <= 1e-9, `${at}: ${ours} vs ${theirs}`);
  } else if (Array.isArray(theirs)) {
    assert.ok(Array.isArray(ours) && ours.length === theirs.length, `${at}: ${ours?.length} items vs ${theirs.length}`);
    theirs.forEach((v, i) => assertSame(ours[i], v, `${at}[${i}]`));
  } else if (theirs && typeof theirs === "object") {
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort(), `${at}: keys`);
    for (const k of Object.keys(theirs)) if (k !== "micros") assertSame(ours[k], theirs[k], `${at}.${k}`);
  } else {
    assert.equal(ours, theirs, at);
  }
}

test("the static playground answers in a Web Worker as the native library does", { timeout: 240_000 }, async (t) => {
  assert.ok(existsSync(join(folder, "pkg", "pathsmooth_playground_wasm_bg.wasm")),
    `no static build in ${folder}: run node crates/pathsmooth-playground-wasm/build.mjs`);
  const reference = await startReference(t);
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  t.after(async () => { await browser.close(); server.close(); });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const apiCalls = [];
  page.on("request", (r) => { if (new URL(r.url()).pathname.includes("/api/")) apiCalls.push(r.url()); });
  await page.goto(`http://127.0.0.1:${server.address().port}/${relative(repo, folder)}/index.html`);
  // The first plan (the example world, its demo start and goal) drawn from the worker.
  await page.waitForSelector("#paths polyline[data-method='shortcut-chaikin']", { timeout: 60_000 });

  /** The page's `api` (its worker), and the reference server's answer to the same request. */
  const ours = (path, body) => page.evaluate(([p, b]) => api(p, b ?? undefined), [path, body ?? null]);
  const theirs = async (path, body) => {
    const res = await fetch(reference + path, body === undefined ? {} : {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return res.json();
  };
  const same = async (path, body) => {
    const a = await ours(path, body);
    assertSame(a, await theirs(path, body), path);
    return a;
  };
  /** Both sides' outcome of a request that may fail: `{ ok: answer }` or `{ status, error }`. */
  const sameOutcome = async (path, body) => {
    const a = await page.evaluate(([p, b]) => api(p, b).then((ok) => ({ ok }), (e) => ({ status: e.status, error: e.message })), [path, body]);
    const res = await fetch(reference + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    assertSame(a, res.ok ? { ok: data } : { status: res.status, error: data.error }, `${path} ${JSON.stringify(body).slice(0, 200)}`);
    return a;
  };
  const rand = random(42); // the random requests below: the same on every run
  const pick = (list) => list[Math.floor(rand() * list.length)];

  // The lists and a grid plan on a world on offer, every method.
  await same("/api/worlds");
  await same("/api/methods");
  await same("/api/layered");
  const plan = await same("/api/plan", { world: "demo", start: [5, 5], goal: [5, 74] });
  assert.ok(Object.keys(plan.paths).length >= 9, `every method answered: ${Object.keys(plan.errors)}`);
  // The page drew the worker's answer to its own first plan (rounded to 3 decimals).
  const drawn = await page.getAttribute("#paths polyline[data-method='shortcut-chaikin']", "points");
  const shown = await page.evaluate(() => state.result.paths["shortcut-chaikin"].points);
  assert.equal(drawn, shown.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" "));

  // An uploaded map (through the page's file input), then a plan on its text with area costs.
  const arena = readFileSync(join(repo, MAP), "utf8");
  await page.setInputFiles("#map-file", { name: "arena.map", mimeType: "text/plain", buffer: Buffer.from(arena) });
  await page.waitForFunction(() => document.getElementById("world").selectedOptions[0]?.textContent.includes("arena"));
  await same("/api/map", { map: arena, name: "arena.map" });
  await same("/api/plan", { map: arena, start: [3, 3], goal: [44, 40], radius: 0.4, methods: ["corridor", "funnel", "shortcut-catmull-rom"], area_costs: "" });
  // Random plans on the uploaded map: random open cells, and every fourth start a cell that
  // is not (a wall, or off the map by up to 3); radius and methods drawn. Answers and refusals alike
  // must be the native library's.
  const arenaRows = arena.split("\n").slice(4).filter((r) => r.length > 0);
  const draw = (n, margin) => Math.floor(rand() * (n + 2 * margin)) - margin;
  const cell = (margin = 0) => [draw(arenaRows[0].length, margin), draw(arenaRows.length, margin)];
  const isOpen = ([x, y]) => arenaRows[y]?.[x] === ".";
  const open = () => { for (;;) { const c = cell(); if (isOpen(c)) return c; } };
  const blocked = () => { for (;;) { const c = cell(3); if (!isOpen(c)) return c; } };
  const methods = Object.keys(plan.paths);
  const gridKinds = { ok: 0, refused: 0 };
  for (let i = 0; i < 12; i++) {
    const body = {
      map: arena, start: i % 4 === 3 ? blocked() : open(), goal: open(), radius: pick([0, 0.3, 0.45]),
      methods: methods.filter(() => rand() < 0.4), area_costs: "",
    };
    gridKinds[(await sameOutcome("/api/plan", body)).ok ? "ok" : "refused"] += 1;
  }
  const scen = await same("/api/scenarios", { scen: readFileSync(join(repo, `${MAP}.scen`), "utf8") });
  assert.ok(scen.scenarios.length > 100, `the scenarios: ${scen.scenarios.length}`);

  // A layered plan on a bundled bake, from its lowest floor to its highest (drawn first).
  await page.selectOption("#world", "layered:dungeon");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("dungeon: "));
  const mesh = await same("/api/layered", { example: "dungeon" });
  assert.equal(await page.$$eval("#world-layer polygon", (ps) => ps.length), mesh.polygons.length);
  const centre = (ring) => ring.reduce(([a, b], [x, y]) => [a + x / ring.length, b + y / ring.length], [0, 0]);
  // The lowest and highest polygons of the largest piece (connected part).
  const counts = {};
  for (const p of mesh.polygons) counts[p.piece] = (counts[p.piece] ?? 0) + 1;
  const piece = Number(Object.entries(counts).sort((a, b) => b[1] - a[1])[0][0]);
  const ids = mesh.polygons.map((_, i) => i).filter((i) => mesh.polygons[i].piece === piece);
  const low = ids.reduce((a, b) => (mesh.polygons[b].height < mesh.polygons[a].height ? b : a));
  const high = ids.reduce((a, b) => (mesh.polygons[b].height > mesh.polygons[a].height ? b : a));
  const layered = await same("/api/layered", {
    example: "dungeon", mesh: false, radius: 0.2, preset: "smooth",
    start: { plan: centre(mesh.polygons[low].ring), polygon: low },
    goal: { plan: centre(mesh.polygons[high].ring), polygon: high },
  });
  assert.ok(layered.plan.path.length > 2 && layered.plan.valid, `a valid path between floors: ${JSON.stringify(layered.plan).slice(0, 300)}`);
  assert.ok(layered.plan.goal[1] - layered.plan.start[1] > 5, "the path climbs");
  // The same bake sent as a navmesh JSON's text: built in the worker, the same path.
  const text = readFileSync(join(repo, "crates/pathsmooth/tests/data/navmesh/dungeon.navmesh.json"), "utf8");
  const sent = await same("/api/layered", {
    navmesh: text, mesh: false, radius: 0.2, preset: "smooth",
    start: { plan: centre(mesh.polygons[low].ring), polygon: low },
    goal: { plan: centre(mesh.polygons[high].ring), polygon: high },
  });
  assertSame(sent.plan, layered.plan, "the navmesh sent");
  // Random layered plans: ends at random points of random polygons (of the largest piece in
  // every other request, else of any piece, so that some cannot be joined), random radius
  // and preset.
  const inRing = (ring) => {
    const w = ring.map(() => rand() + 0.05);
    const sum = w.reduce((a, b) => a + b, 0);
    return [0, 1].map((k) => ring.reduce((acc, c, i) => acc + (c[k] * w[i]) / sum, 0));
  };
  const end = (within) => { const polygon = pick(within); return { plan: inRing(mesh.polygons[polygon].ring), polygon }; };
  const all = mesh.polygons.map((_, i) => i);
  const layeredKinds = { ok: 0, refused: 0 };
  for (let i = 0; i < 12; i++) {
    const body = { example: "dungeon", mesh: false, radius: pick([0, 0.2, 0.4]), preset: pick(["shortest", "smooth"]), start: end(i % 2 ? ids : all), goal: end(i % 2 ? ids : all) };
    layeredKinds[(await sameOutcome("/api/layered", body)).ok ? "ok" : "refused"] += 1;
  }
  // The seed gives both kinds on both worlds (a comparison of answers only would miss errors).
  console.error(`random requests answered alike: grid ${JSON.stringify(gridKinds)}, layered ${JSON.stringify(layeredKinds)}`);
  for (const [world, kinds] of [["grid", gridKinds], ["layered", layeredKinds]]) {
    assert.ok(kinds.ok >= 3 && kinds.refused >= 1, `random ${world} requests: ${JSON.stringify(kinds)}`);
  }

  // A crowd: the same frames as the native run, and an oracle of its own.
  await page.selectOption("#world", "demo");
  await page.waitForSelector("#paths polyline[data-method='shortcut-chaikin']");
  const crowdReq = { world: "demo", agents: 25, seconds: 6, seed: 7, avoid: true, doors: false, truck: false };
  const crowd = await same("/api/crowd", crowdReq);
  const grid = await ours("/api/worlds/demo");
  // Random crowds: size, length, seed, avoidance, doors and the truck drawn.
  for (let i = 0; i < 2; i++) {
    const seed = Math.floor(rand() * 1e6);
    await same("/api/crowd", { world: "demo", agents: 5 + Math.floor(rand() * 25), seconds: 2 + Math.floor(rand() * 3), seed, avoid: rand() < 0.7, doors: rand() < 0.5, truck: rand() < 0.5 });
  }
  const sum = 2 * crowd.radius;
  crowd.frames.forEach(({ at }, f) => {
    for (let i = 0; i < at.length / 2; i++) {
      const [x, y] = [at[2 * i], at[2 * i + 1]];
      assert.equal(grid.rows[Math.floor(y)][Math.floor(x)], ".", `frame ${f}: agent ${i} at (${x}, ${y}) on a free cell`);
      for (let j = i + 1; j < at.length / 2; j++) {
        const gap = Math.hypot(x - at[2 * j], y - at[2 * j + 1]);
        assert.ok(gap >= 0.99 * sum - 1e-3, `frame ${f}: agents ${i} and ${j} ${gap} apart (radii ${sum})`);
      }
    }
  });

  // Cancel a long crowd (the largest the page offers) from the page: the page answers at
  // once while the worker works, and the next request (a plan) answers from a new worker.
  await page.click("#mode-crowd");
  await page.$eval("#crowd-agents", (e) => { e.value = "100"; e.dispatchEvent(new Event("input", { bubbles: true })); });
  await page.$eval("#crowd-seconds", (e) => { e.value = "30"; e.dispatchEvent(new Event("input", { bubbles: true })); });
  await page.evaluate(() => { window.firstWorker = engine.worker; });
  const started = Date.now();
  await page.click("#crowd-run");
  await page.waitForFunction(() => document.getElementById("status").textContent.includes("simulating 100 agents"));
  const t0 = Date.now();
  assert.equal(await page.evaluate(() => 6 * 7), 42);
  assert.ok(Date.now() - t0 < 1000, `the page answered in ${Date.now() - t0} ms while the crowd runs`);
  assert.equal(await page.textContent("#crowd-line"), "", "the long crowd has not answered yet");
  await page.click("#mode-paths"); // leaves the crowd: its request is aborted, the page plans
  await page.waitForFunction(() => /shortcut-chaikin/.test(document.getElementById("metrics").innerText)
    && !document.getElementById("status").textContent.startsWith("Planning"));
  const replan = Date.now() - started;
  assert.ok(await page.evaluate(() => engine.worker !== null && engine.worker !== window.firstWorker),
    "the busy worker was ended and a new one answered");
  assert.equal(await page.textContent("#crowd-line"), "", "the cancelled crowd never answered");
  assertSame(await ours("/api/plan", { world: "demo", start: [5, 5], goal: [5, 74] }), plan, "plan after the cancel");
  console.error(`cancelled a 100-agent 30 s crowd; the next plan answered ${replan} ms after the crowd started`);

  // A live crowd (live.mjs): started with Live, sent by clicks, its frames judged.
  await liveCrowdIsSentByAClick(page, grid);

  // Bad input: the error is shown (and thrown), the worker answers the next request.
  await page.setInputFiles("#map-file", { name: "bad.map", mimeType: "text/plain", buffer: Buffer.from("type octile\nheight 2\nwidth x\nmap\n..\n") });
  await page.waitForFunction(() => document.getElementById("status").classList.contains("error"));
  const said = await page.textContent("#status");
  const thrown = await page.evaluate(() => api("/api/plan", { world: "demo", start: [1.5, 2], goal: [5, 5] })
    .then(() => null, (e) => [e.status, e.message]));
  assert.deepEqual(thrown, [400, "start [1.5, 2] is not a cell: give whole numbers [column, row]"]);
  const wall = await page.evaluate(() => api("/api/plan", { world: "demo", start: [0, 0], goal: [5, 74] })
    .then(() => null, (e) => e.status));
  assert.equal(wall, 422, "a start in a wall cannot be planned");
  const nowhere = await page.evaluate(() => api("/api/nowhere").then(() => null, (e) => e.message));
  assert.match(nowhere, /^no such page or API route/);
  assertSame(await ours("/api/plan", { world: "demo", start: [5, 5], goal: [5, 74] }), plan, "plan after bad input");
  assert.ok(said.length > 0, "the bad map's error is shown");

  assert.deepEqual(apiCalls, [], "no request went to a server");
  assert.deepEqual(problems, [], "no script errors");
});
