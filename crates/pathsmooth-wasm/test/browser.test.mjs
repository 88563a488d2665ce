// The package in headless Chromium, served as static files: the library in a Web Worker
// (web/), a grid plan and a layered plan checked against the native library (`pathsmooth
// plan`, when the binary is there: under CI it must be), a crowd checked by an oracle here,
// and a long job cancelled with the page still answering. Needs `npm run build` first.
//   CHROMIUM        the browser (default: /usr/bin/chromium)
//   PATHSMOOTH_BIN  the native CLI (default: target/debug/pathsmooth)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crate, nativeBin, repo, serveAndLaunch } from "./serve.mjs";

const BAKE = "crates/pathsmooth/tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin";
const MAP = "data/movingai/dao/arena.map";

const BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"];

test("the library runs in a Web Worker of a static page and answers as the native library does", async (t) => {
  assert.ok(existsSync(join(crate, "pkg", "pathsmooth_wasm_bg.wasm")), "run `npm run build` first");
  const { server, browser } = await serveAndLaunch(t, BROWSER_ARGS);
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/crates/pathsmooth-wasm/web/index.html`);
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");
  const run = (job, args) => page.evaluate(([job, args]) => window.pathsmooth.run(job, args), [job, args]);

  const bin = nativeBin();
  const native = bin !== null;
  const out = mkdtempSync(join(tmpdir(), "pathsmooth-browser-"));

  // A grid plan: the same path as the native CLI's shortcut-chaikin (the Smooth preset;
  // cells (3, 3) → (44, 40) of arena.map).
  const grid = await run("grid", { map: readFileSync(join(repo, MAP), "utf8"), radius: 0, preset: "smooth", from: [3.5, 3.5], to: [44.5, 40.5] });
  const path = Object.values(grid.path);
  assert.deepEqual(path.slice(0, 2), [3.5, 3.5]);
  assert.equal(grid.report.validation.valid, true);
  if (native) {
    const file = join(out, "grid.json");
    execFileSync(bin, ["plan", "--map", join(repo, MAP), "--method", "shortcut-chaikin", "--from", "3,3", "--to", "44,40", "--output", file], { stdio: "ignore" });
    const theirs = JSON.parse(readFileSync(file, "utf8"));
    const flat = (theirs.points ?? theirs.path ?? theirs).flatMap((p) => (Array.isArray(p) ? p : [p.x, p.y]));
    assert.equal(flat.length, path.length, "as many points as the native library's");
    flat.forEach((x, i) => assert.ok(Math.abs(x - path[i]) < 1e-9, `coordinate ${i}: ${path[i]} vs ${x}`));
  }

  // A layered plan on a Detour bake, fetched by the page as a static file.
  const bytes = [...readFileSync(join(repo, BAKE))];
  const from = [-12.25, 10.19, -15.93];
  const to = [-7.35, 10.2, -23.62];
  const layered = await run("layered", { name: "dungeon.bin", bytes, preset: "smooth", from, to });
  const points = Object.values(layered.points);
  if (native) {
    const file = join(out, "layered.json");
    execFileSync(bin, ["plan", "--navmesh", join(repo, BAKE), "--preset", "smooth", "--from", from.join(","), "--to", to.join(","), "--output", file], { stdio: "ignore" });
    const theirs = JSON.parse(readFileSync(file, "utf8")).points.flatMap((p) => p.position);
    assert.equal(theirs.length, points.length);
    theirs.forEach((x, i) => assert.ok(Math.abs(x - points[i]) < 1e-9, `coordinate ${i}: ${points[i]} vs ${x}`));
  }

  // A crowd: no two agents closer than 0.99 of their radii's sum at the end, all arrived.
  const crowd = await run("crowd", { size: 30, agents: 12, frames: 900 });
  const p = Object.values(crowd.positions);
  const r = Object.values(crowd.radii);
  for (let i = 0; i < r.length; i++) {
    for (let j = i + 1; j < r.length; j++) {
      const gap = Math.hypot(p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]);
      assert.ok(gap >= 0.99 * (r[i] + r[j]), `agents ${i} and ${j} ${gap} apart`);
    }
  }
  assert.equal(crowd.arrived, 12);

  // A long job cancelled: its promise rejects, the page never froze, the next job answers.
  const long = page.evaluate(() => window.pathsmooth.run("crowd", { size: 200, agents: 2000, frames: 100000 }).then(() => "done", (e) => e.message));
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => 1 + 1), 2, "the page answers while the worker works");
  await page.evaluate(() => window.pathsmooth.cancel());
  assert.equal(await long, "cancelled");
  const again = await run("grid", { map: readFileSync(join(repo, MAP), "utf8"), radius: 0, preset: "smooth", from: [3.5, 3.5], to: [44.5, 40.5] });
  assert.deepEqual(Object.values(again.path), path);

  // An error crosses as an Error with the library's message.
  const refused = await page.evaluate(() => window.pathsmooth.run("grid", { map: "nonsense", radius: 0, preset: "smooth", from: [0, 0], to: [1, 1] }).then(() => "planned", (e) => e.message));
  assert.match(refused, /^GridWorld\.fromMovingAi: /);
  assert.deepEqual(problems, []);
});

test("a worker that cannot load fails its jobs rather than leaving them waiting", async (t) => {
  const { server, browser } = await serveAndLaunch(t, BROWSER_ARGS);
  // The file never arrives (a host that lost it, a network that dropped it): the module
  // (the worker answers each job with the error) or the worker's script (the page's
  // error handler fails the jobs waiting).
  for (const lost of ["**/*.wasm", "**/web/worker.js"]) {
    const page = await browser.newPage();
    await page.route(lost, (route) => route.abort());
    await page.goto(`http://127.0.0.1:${server.address().port}/crates/pathsmooth-wasm/web/index.html`);
    await page.waitForFunction(() => document.getElementById("status").textContent === "ready");
    const job = () => page.evaluate(() => window.pathsmooth.run("crowd", { size: 10, agents: 2, frames: 1 }).then(() => "answered", (e) => `refused: ${e.message}`));
    // A job that never settles is the defect: the race turns it into an answer to read.
    const waited = () => new Promise((resolve) => setTimeout(() => resolve("still waiting after 20 s"), 20_000).unref());
    // Twice: the job after a failure is refused too, not left to a worker that never ran.
    for (const attempt of [1, 2]) {
      const outcome = await Promise.race([job(), waited()]);
      assert.match(outcome, /^refused: /, `${lost}, job ${attempt}`);
    }
    await page.close();
  }
});
