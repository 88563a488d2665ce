// The playground in a real browser: Debian's headless Chromium driven by playwright-core
// (which downloads no browser). Starts `pathsmooth serve --port 0` on 127.0.0.1, shows a
// skipped step's reason (Chaikin with no passes), shows relax at a radius not skipped,
// clicks the ends, drags the goal, switches a method on, moves the radius slider, zooms, plays, saves a screenshot to docs/playground.png, and downloads a
// path as JSON and the view as SVG. A second test: the layered mode (a bundled Recast bake
// and a navmesh JSON file drawn from above, the floors under the cursor, a path between floors).
//
//   PATHSMOOTH_BIN   the binary (default: target/release/pathsmooth, else target/debug/…)
//   CHROMIUM         the browser (default: /usr/bin/chromium)
//   SCREENSHOT       where the screenshot goes (default: docs/playground.png)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { liveCrowdIsSentByAClick } from "./live.mjs";
import { root, startServer } from "./server.mjs";

const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const screenshot = process.env.SCREENSHOT ?? `${root}docs/playground.png`;

/**
 * Starts the server and a headless Chromium (both closed after test `t`), opens the page and
 * waits for its first plan (on the example world with its demo start and goal); resolves to
 * {url, page, problems}, `problems` collecting the page's script and console errors.
 */
async function openPlayground(t) {
  const { child, url } = await startServer();
  const browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox"] });
  t.after(async () => { await browser.close(); child.kill(); });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector("#paths polyline[data-method='shortcut-chaikin']");
  return { url, page, problems };
}

/** A free cell with free neighbours, nearest to (x, y). */
function freeCellNear(rows, x, y) {
  let best = null;
  for (let cy = 2; cy < rows.length - 2; cy++) {
    for (let cx = 2; cx < rows[0].length - 2; cx++) {
      let ok = true;
      for (let dy = -2; dy <= 2 && ok; dy++) for (let dx = -2; dx <= 2; dx++) ok &&= rows[cy + dy][cx + dx] === ".";
      const d = Math.hypot(cx - x, cy - y);
      if (ok && (!best || d < best.d)) best = { d, cell: [cx, cy] };
    }
  }
  assert.ok(best, "the example map has a free 5×5 area");
  return best.cell;
}

/** Screen position of a point of the map's SVG (a plan-view point of the layered view). */
const planOnScreen = (page, [x, y]) => page.evaluate(([x, y]) => {
  const svg = document.getElementById("map");
  const p = svg.createSVGPoint();
  p.x = x; p.y = y;
  const q = p.matrixTransform(svg.getScreenCTM());
  return [q.x, q.y];
}, [x, y]);

/** Screen position of the centre of a cell. */
const cellOnScreen = (page, [x, y]) => planOnScreen(page, [x + 0.5, y + 0.5]);

/** Sets a range input to `value` as one user move would (one `input` event). */
const setSlider = (page, id, value) => page.$eval(`#${id}`, (e, v) => {
  e.value = String(v);
  e.dispatchEvent(new Event("input", { bubbles: true }));
}, value);

/**
 * Runs `action`, which makes the page plan once, and resolves when that plan's answer is
 * drawn: the page's `POST /api/plan` has answered and the status has left "Planning…"
 * (it is set when the plan starts and replaced, with the table and the paths, when its
 * answer is drawn). What follows then sees the new paths, table and layout.
 */
async function replanned(page, action) {
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/plan") && r.request().method() === "POST");
  await action();
  await answered;
  await page.waitForFunction(() => !document.getElementById("status").textContent.startsWith("Planning"));
}

const pathPoints = (page) => page.$$eval("#paths polyline", (ls) =>
  Object.fromEntries(ls.map((l) => [l.dataset.method, l.getAttribute("points")])));
const tableRows = (page) => page.$$eval("#metrics tbody tr", (rs) => rs.map((r) => r.innerText));
const statusText = (page) => page.textContent("#status");

test("the playground plans, redraws and plays in headless Chromium", { timeout: 60_000 }, async (t) => {
  // The page opens on the example world with its demo start and goal, planned.
  const { url, page, problems } = await openPlayground(t);
  const before = { paths: await pathPoints(page), rows: await tableRows(page) };
  assert.ok(before.rows.length >= 4, `the metrics table has a row per method: ${before.rows}`);
  assert.ok(await page.isVisible("#legend li"), "the legend is shown");

  // Chaikin with no passes (the slider at 0) leaves every path as it was: the pipeline
  // reports the Chaikin step of shortcut-chaikin (on from the start) as skipped because it
  // changed nothing, and the page says so in words, on the legend and on a row under the
  // method's, with the reason. Then the passes go back to 4 and the note goes.
  const skipNote = "#metrics tbody tr.skip-note[data-skipped-for='shortcut-chaikin']";
  assert.equal(await page.$(skipNote), null, "four passes cut corners: nothing skipped");
  await replanned(page, () => setSlider(page, "passes", 0));
  assert.ok(await page.$(skipNote), `a skip note for shortcut-chaikin: ${await tableRows(page)}`);
  assert.match(await page.innerText(skipNote), /shortcut-chaikin: step "chaikin" skipped: changed nothing: \S/);
  assert.match(await page.innerText("#metrics tbody tr[data-method='shortcut-chaikin']"), /⚠ skipped/);
  assert.match(await page.innerText("#legend li[data-method='shortcut-chaikin']"), /⚠ step "chaikin" skipped/);
  assert.ok(await page.isVisible(skipNote), "the reason is visible, not only in a tooltip");

  // Portal relaxation at the page's first radius (0.3) keeps the radius (issue 28, item 5):
  // switched on, it draws its path, with no skip note and no flag on the legend. Off again.
  await replanned(page, () => page.check("#methods input[value='relax']"));
  assert.ok(await page.$("#paths polyline[data-method='relax']"), "relax draws its path");
  assert.equal(await page.$("#metrics tbody tr.skip-note[data-skipped-for='relax']"), null);
  assert.doesNotMatch(await page.innerText("#legend li[data-method='relax']"), /skipped|invalid|failed/);
  await replanned(page, () => page.uncheck("#methods input[value='relax']"));
  await replanned(page, () => setSlider(page, "passes", 4));
  assert.equal(await page.$(skipNote), null, "the note goes with the passes back");
  assert.equal(await page.$("#paths polyline[data-method='relax']"), null);

  // Shift-click sets the start, click sets the goal. Each click plans again, and the answer
  // can change the layout (the status line's length, rows of skipped steps under the
  // table), so each waits for its plan to be drawn before the next position is taken.
  const { worlds } = await (await fetch(`${url}api/worlds`)).json();
  const grid = await (await fetch(`${url}api/worlds/${worlds[0].name}`)).json();
  const [w, h] = [grid.width, grid.height];
  const start = freeCellNear(grid.rows, 0.16 * w, 0.8 * h);
  const goal = freeCellNear(grid.rows, 0.8 * w, 0.16 * h);
  const [sx, sy] = await cellOnScreen(page, start);
  await replanned(page, async () => {
    await page.keyboard.down("Shift");
    await page.mouse.click(sx, sy);
    await page.keyboard.up("Shift");
  });
  assert.ok((await statusText(page)).includes(`(${start}) → `), await statusText(page));
  let [gx, gy] = await cellOnScreen(page, goal);
  await replanned(page, () => page.mouse.click(gx, gy));
  assert.ok((await statusText(page)).includes(`(${start}) → (${goal})`), await statusText(page));
  const clicked = { paths: await pathPoints(page), rows: await tableRows(page) };
  assert.notEqual(clicked.paths["shortcut-chaikin"], before.paths["shortcut-chaikin"], "the path follows the new ends");
  assert.notDeepEqual(clicked.rows, before.rows, "the metrics follow the new ends");

  // Drag the goal by a few cells. The answer to the click may have changed the layout
  // (rows of skipped steps under the table), so the goal is found on screen again.
  const moved = freeCellNear(grid.rows, goal[0] - 4, goal[1] + 6);
  [gx, gy] = await cellOnScreen(page, goal);
  const [mx, my] = await cellOnScreen(page, moved);
  await page.mouse.move(gx, gy);
  await page.mouse.down();
  await page.mouse.move((gx + mx) / 2, (gy + my) / 2, { steps: 4 });
  await page.mouse.move(mx, my, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((want) => document.getElementById("status").textContent.includes(want),
    `(${start}) → (${moved})`);

  // Switch the funnel on: its path and its row appear.
  assert.equal(await page.$("#paths polyline[data-method='funnel']"), null);
  await page.check("#methods input[value='funnel']");
  await page.waitForSelector("#paths polyline[data-method='funnel']");
  await page.waitForSelector("#metrics tbody tr[data-method='funnel']");
  const withFunnel = { paths: await pathPoints(page), rows: await tableRows(page) };

  // Move the radius slider from 0.3 to 0.8 with the keyboard: bands widen, paths and
  // clearances change.
  await page.focus("#radius");
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await page.inputValue("#radius"), "0.8");
  await page.waitForFunction(() => [...document.querySelectorAll("#bands polyline")]
    .every((b) => b.getAttribute("stroke-width") === "1.6") && document.querySelectorAll("#bands polyline").length > 0);
  const wider = { paths: await pathPoints(page), rows: await tableRows(page) };
  assert.notDeepEqual(wider.rows, withFunnel.rows, "the metrics table changed with the radius");
  assert.notDeepEqual(wider.paths, withFunnel.paths, "the drawn paths changed with the radius");
  const clearances = await page.$$eval("#metrics tbody tr", (rs) =>
    rs.filter((r) => r.cells.length > 3).map((r) => Number(r.cells[6].textContent)));
  assert.ok(clearances.length >= 4 && clearances.every((c) => c >= 0.8 - 1e-3), `clearances ≥ radius: ${clearances}`);
  assert.match(await statusText(page), /A\* length/);

  // Wheel zoom changes the view box.
  const box0 = await page.getAttribute("#map", "viewBox");
  await page.mouse.move(700, 450);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((b) => document.getElementById("map").getAttribute("viewBox") !== b, box0);
  await page.click("#fit");

  // The corridor method's disks, on request.
  await page.check("#show-disks");
  assert.ok((await page.$$("#disks circle")).length > 3, "corridor disks drawn");

  // Play: one agent per planned method (a method may fail at this radius: the funnel's
  // width check still reports false narrow passages), moving.
  const planned = await page.$$eval("#metrics tbody tr", (rs) => rs.filter((r) => r.cells.length > 3).length);
  await page.click("#play");
  await page.waitForSelector("#agents circle[data-agent='shortcut-chaikin']");
  const agentAt = () => page.$$eval("#agents circle", (cs) => cs.map((c) => `${c.getAttribute("cx")},${c.getAttribute("cy")}`));
  const a0 = await agentAt();
  await page.waitForTimeout(1200);
  const a1 = await agentAt();
  assert.equal(a1.length, planned, "one agent per planned method");
  assert.notDeepEqual(a1, a0, "the agents move");
  assert.match(await page.textContent("#clock"), /t = \d+\.\d\d s/);

  await page.screenshot({ path: screenshot });

  // Downloads: a path as JSON, the view as SVG.
  const saved = async (selector) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString() };
  };
  const json = await saved("#metrics tbody tr[data-method='shortcut-chaikin'] button");
  assert.equal(json.name, "shortcut-chaikin.json");
  const points = JSON.parse(json.text).points;
  assert.deepEqual(points[0], [start[0] + 0.5, start[1] + 0.5]);
  const svg = await saved("#svg-download");
  assert.equal(svg.name, "pathsmooth-view.svg");
  assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.text, /data-method="shortcut-chaikin"/);
  assert.match(svg.text, />shortcut-chaikin<\/text>/, "the legend is in the SVG");

  // Your own map (the example's cells as a .map file), then a scenario file for it.
  const mapText = `type octile\nheight ${h}\nwidth ${w}\nmap\n${grid.rows.join("\n")}\n`;
  await page.setInputFiles("#map-file", { name: "mine.map", mimeType: "text/plain", buffer: Buffer.from(mapText) });
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("mine.map: click"));
  assert.equal(await page.inputValue("#world"), "upload:mine.map");
  assert.equal(await page.$$eval("#paths polyline", (ls) => ls.length), 0, "no ends yet, no paths");
  const scen = `version 1\n0\tmine.map\t${w}\t${h}\t${start.join("\t")}\t${moved.join("\t")}\t40\n`;
  await page.setInputFiles("#scen-file", { name: "mine.map.scen", mimeType: "text/plain", buffer: Buffer.from(scen) });
  await page.waitForSelector("#scenario:not([hidden]) option[value='0']", { state: "attached" });
  await page.selectOption("#scenario", "0");
  await page.waitForFunction((want) => document.getElementById("status").textContent.includes(want),
    `mine.map: (${start}) → (${moved})`);
  assert.equal(await page.$$eval("#metrics tbody tr", (rs) => rs.length), wider.rows.length);
  assert.deepEqual(problems, [], "no script errors");
});

test("the layered mode draws a bake's floors and plans a path between two of them", { timeout: 60_000 }, async (t) => {
  const { url, page, problems } = await openPlayground(t);

  // The dungeon bake: its polygons from above, the grid's controls hidden.
  await page.selectOption("#world", "layered:dungeon");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("dungeon: "));
  const mesh = await (await fetch(`${url}api/layered`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ example: "dungeon" }),
  })).json();
  assert.equal(await page.$$eval("#world-layer polygon", (ps) => ps.length), mesh.polygons.length);
  assert.ok(!(await page.isVisible("#metrics-box")) && await page.isVisible("#layered-panel"));

  // A spot where two floors overlap: the cursor lists both, the top one chosen; F the other.
  const centre = (ring) => ring.reduce(([a, b], [x, y]) => [a + x / ring.length, b + y / ring.length], [0, 0]);
  const inside = (q, ring) => {
    let pos = false, neg = false;
    ring.forEach((a, i) => {
      const b = ring[(i + 1) % ring.length];
      const c = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
      if (c > 1e-9) pos = true; else if (c < -1e-9) neg = true;
    });
    return !(pos && neg);
  };
  // Sample points: each polygon's centre and the midpoints towards its corners.
  const samples = mesh.polygons.flatMap((p) => {
    const c = centre(p.ring);
    return [c, ...p.ring.map(([x, y]) => [(c[0] + x) / 2, (c[1] + y) / 2])];
  });
  const stacked = samples.find((q) => {
    const hs = mesh.polygons.filter((p) => inside(q, p.ring)).map((p) => p.height);
    return Math.max(...hs) - Math.min(...hs) > 2;
  });
  assert.ok(stacked, "the dungeon has floors over floors");
  const [hx, hy] = await planOnScreen(page, stacked);
  await page.mouse.move(hx, hy);
  await page.waitForFunction(() => document.querySelectorAll("#floors [data-polygon]").length >= 2);
  const top = await page.getAttribute("#bands polygon[data-chosen]", "data-chosen");
  await page.keyboard.press("f");
  assert.notEqual(await page.getAttribute("#bands polygon[data-chosen]", "data-chosen"), top, "F picks another floor");
  await page.keyboard.press("f");
  assert.equal(await page.getAttribute("#bands polygon[data-chosen]", "data-chosen"), top, "and back to the top one");

  // Start on the lowest floor of the largest piece, goal on its highest: a path between floors.
  const counts = {};
  for (const p of mesh.polygons) counts[p.piece] = (counts[p.piece] ?? 0) + 1;
  const piece = Number(Object.entries(counts).sort((a, b) => b[1] - a[1])[0][0]);
  const ours = mesh.polygons.filter((p) => p.piece === piece);
  const low = ours.reduce((a, b) => (b.height < a.height ? b : a));
  const high = ours.reduce((a, b) => (b.height > a.height ? b : a));
  // The cut at the low floor's height first, so that a floor above it cannot take the click.
  await page.$eval("#cut", (c, h) => { c.value = String(Math.ceil(h)); c.dispatchEvent(new Event("input")); }, low.height);
  const [sx, sy] = await planOnScreen(page, centre(low.ring));
  await page.mouse.click(sx, sy);
  await page.$eval("#cut", (c) => { c.value = c.max; c.dispatchEvent(new Event("input")); });
  const [gx, gy] = await planOnScreen(page, centre(high.ring));
  await page.mouse.click(gx, gy);
  await page.waitForFunction(() => /length \d/.test(document.getElementById("status").textContent));
  const text = await statusText(page);
  const [, from, to] = text.match(/height (-?[\d.]+) → (-?[\d.]+)/);
  assert.ok(Number(to) - Number(from) > 5, `the path climbs: ${text}`);
  assert.ok(await page.$$eval("#paths line", (ls) => ls.length) > 2, "the path is drawn");

  // Cut below the goal's floor: the segments up there are dashed.
  await page.$eval("#cut", (c, h) => { c.value = String(Math.ceil(h)); c.dispatchEvent(new Event("input")); }, low.height);
  assert.ok(await page.$$eval("#paths line[stroke-dasharray]", (ls) => ls.length) > 0, "segments above the cut dashed");

  // Your own navmesh JSON (the same bake as a file): drawn the same.
  const bake = readFileSync(`${root}crates/pathsmooth/tests/data/navmesh/dungeon.navmesh.json`);
  await page.setInputFiles("#navmesh-file", { name: "mine.navmesh.json", mimeType: "application/json", buffer: bake });
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("mine.navmesh.json: "));
  assert.equal(await page.$$eval("#world-layer polygon", (ps) => ps.length), mesh.polygons.length);
  assert.equal(await page.inputValue("#world"), "layered-file:mine.navmesh.json");

  // Back to a grid world: the grid's controls return.
  await page.selectOption("#world", "demo");
  await page.waitForSelector("#paths polyline[data-method='shortcut-chaikin']");
  assert.ok(await page.isVisible("#metrics-box"));
  assert.deepEqual(problems, [], "no script errors");
});

test("the crowd mode runs a crowd on the server and plays it", { timeout: 90_000 }, async (t) => {
  const { page, problems } = await openPlayground(t);
  await page.click("#mode-crowd");
  assert.ok(await page.isVisible("#crowd-panel") && !(await page.isVisible("#metrics-box")), "the crowd's panel, not the paths'");
  assert.equal(await page.$$eval("#paths polyline", (ls) => ls.length), 0, "the paths are cleared");
  for (const id of ["crowd-avoid", "crowd-doors", "crowd-truck"]) await page.check(`#${id}`);

  // A first run of the largest crowd (seconds of work), replaced at once by a small one: the
  // first request is aborted (the server stops its work when the connection closes), one
  // crowd is drawn, the second's.
  const failed = [];
  page.on("requestfailed", (q) => { if (q.url().endsWith("/api/crowd")) failed.push(q.postDataJSON()); });
  await setSlider(page, "crowd-agents", 100);
  await setSlider(page, "crowd-seconds", 30);
  const sent = page.waitForRequest((q) => q.url().endsWith("/api/crowd"));
  await page.click("#crowd-run");
  await sent;
  await setSlider(page, "crowd-agents", 20);
  await setSlider(page, "crowd-seconds", 4);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/crowd") && r.request().method() === "POST");
  await page.click("#crowd-run");
  const r = await (await answered).json();
  assert.deepEqual(failed.map((q) => q.agents), [100], "the first run's request was aborted");
  assert.equal(r.frames.length, 4 * 20 + 1, "20 frames a second and the start");
  assert.ok(r.truck, `a truck on the demo map: ${r.truck_note}`);

  // The animation draws frame after frame: the agents as discs of their radius, the doors, the truck.
  await page.waitForFunction(() => Number(document.getElementById("crowd").dataset.frame) >= 10);
  assert.equal(await page.$$eval("#crowd circle[data-agent]", (cs) => cs.length), 20, "one disc per agent, one crowd");
  assert.equal(await page.getAttribute("#crowd circle[data-agent='0']", "r"), "0.3");
  assert.equal(await page.$$eval("#crowd rect[data-door]", (rs) => rs.length), r.doors.length);
  assert.ok(await page.$("#crowd circle[data-truck]"), "the truck is drawn");
  assert.ok(await page.$$eval("#crowd polyline", (ls) => ls.filter((l) => l.getAttribute("points")).length) === 20,
    "every agent's path, faint");
  const drawnAt = () => page.$$eval("#crowd circle[data-agent]", (cs) => cs.map((c) => `${c.getAttribute("cx")},${c.getAttribute("cy")}`));
  const d0 = await drawnAt();
  const f0 = Number(await page.getAttribute("#crowd", "data-frame"));
  await page.waitForFunction((f) => Number(document.getElementById("crowd").dataset.frame) > f + 5, f0);
  assert.notDeepEqual(await drawnAt(), d0, "the agents move");

  // The contacts line as the server reported it: no overlap, no wall hit.
  const line = await page.textContent("#crowd-line");
  assert.match(line, /^overlaps 0 wall_hits 0 arrived \d+\/20 · invalid paths 0 · truck hits 0/);
  assert.equal(line.split(" · ")[0], r.line);

  // At the end, every disc where the last frame has it.
  await page.waitForSelector("#crowd[data-done='true']", { timeout: 20_000 });
  const end = r.frames[r.frames.length - 1].at;
  const drawn = await page.$$eval("#crowd circle[data-agent]", (cs) => cs.map((c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]));
  drawn.forEach(([x, y], i) => {
    assert.ok(Math.abs(x - end[2 * i]) < 1e-9 && Math.abs(y - end[2 * i + 1]) < 1e-9, `agent ${i} at ${x},${y}`);
  });

  // A live crowd (live.mjs), kept by the server under a session number. Its click in a
  // wall is the one 422 the browser logs.
  const before = problems.length;
  await liveCrowdIsSentByAClick(page, await page.evaluate(() => api("/api/worlds/demo")));
  const refused = problems.splice(before).filter((m) => !m.includes("status of 422"));
  assert.deepEqual(refused, [], "no other error during the live crowd");

  // Back to the paths: the crowd goes, the plan comes back.
  await page.click("#mode-paths");
  await page.waitForSelector("#paths polyline[data-method='shortcut-chaikin']");
  assert.equal(await page.$$eval("#crowd *", (es) => es.length), 0, "the crowd is cleared");
  assert.ok(await page.isVisible("#metrics-box"));
  assert.deepEqual(problems, [], "no script errors");
});
