// pathsmooth playground, layered mode: a navmesh whose floors overlap in plan view (a bake
// of Recast's demo levels), drawn from above, coloured by height, and a path on it from
// POST /api/layered. Loaded before app.js; its functions use app.js's helpers ($, el, api,
// status, state, setView, fitView) when they are called.
"use strict";

const layered = {
  name: null,        // the example's or file's name
  source: null,      // {example: name} or {navmesh: text}: what every request sends
  mesh: null,        // {bounds, heights, polygons: [{ring, height, piece}]}
  cut: Infinity,     // floors higher than this are drawn faint and cannot be picked
  here: [],          // polygons under the cursor at or below the cut, top first
  pick: 0,           // which of them a click takes (F: the next one down)
  cursor: null,      // plan-view point under the cursor
  start: null, goal: null,   // {plan: [a, b], polygon, height}
  result: null,      // the `plan` of the last answer
  seq: 0,
};
/** Heights within this of the cut count as at the cut (a floor's mean height vs. its corners). */
const CUT_SLACK = 0.5;

/** Colour of a floor at height h: blue (lowest) to orange (highest). */
function heightColour(h) {
  const [lo, hi] = layered.mesh.heights;
  const t = hi > lo ? (h - lo) / (hi - lo) : 0;
  return `hsl(${Math.round(220 - 190 * t)}, 65%, ${Math.round(72 - 17 * t)}%)`;
}

/** A 3D point's plan-view position and height, by the mesh's up axis. */
const planOf = (p) => (layered.mesh.up === "z" ? [p[0], p[1]] : [p[0], p[2]]);
const heightOf = (p) => (layered.mesh.up === "z" ? p[2] : p[1]);

const visible = (h) => h <= layered.cut + CUT_SLACK;

/** True when plan point q is inside the convex ring (either winding; the boundary counts). */
function inRing(q, ring) {
  let pos = false, neg = false;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i], b = ring[(i + 1) % ring.length];
    const c = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    if (c > 1e-9) pos = true; else if (c < -1e-9) neg = true;
  }
  return !(pos && neg);
}

/** Polygons under plan point q at or below the cut, highest first. */
function floorsAt(q) {
  const ps = layered.mesh.polygons;
  return ps.map((p, i) => i).filter((i) => visible(ps[i].height) && inRing(q, ps[i].ring))
    .sort((a, b) => ps[b].height - ps[a].height);
}

// ---- mode -----------------------------------------------------------------------------

/** Shows a bundled example, or (given its text) a navmesh JSON file. */
async function showLayered(name, text = undefined) {
  stopPlay();
  leaveCrowd();
  const source = text === undefined ? { example: name } : { navmesh: text };
  const mesh = await api("/api/layered", source);
  Object.assign(layered, { name, source, mesh, start: null, goal: null, result: null, here: [], pick: 0 });
  const [lo, hi] = mesh.heights;
  const cut = $("cut");
  cut.min = Math.floor(lo); cut.max = Math.ceil(hi); cut.step = 0.5; cut.value = cut.max;
  layered.cut = Number(cut.value);
  $("cut-out").textContent = cut.value;
  const [x0, y0, x1, y1] = mesh.bounds;
  state.layered = true;
  state.world = { name, width: x1 - x0, height: y1 - y0, x0, y0 };
  state.start = state.goal = state.result = null;
  document.body.classList.add("layered-mode");
  drawPaths(); drawLegend(); drawTable();
  fitView();
  drawLayered();
  status(`${name}: ${mesh.polygons.length} polygons, heights ${lo.toFixed(1)} to ${hi.toFixed(1)}; click a floor to set the start`);
}

function leaveLayered() {
  state.layered = false;
  document.body.classList.remove("layered-mode");
  for (const id of ["bands", "paths", "ends"]) $(id).replaceChildren();
}

// ---- drawing --------------------------------------------------------------------------

function drawLayered() {
  drawFloors(); drawHere(); drawLayeredPath(); drawLayeredEnds();
}

/** Every polygon from above, lowest first (a higher floor covers a lower one). */
function drawFloors() {
  const layer = $("world-layer");
  layer.replaceChildren();
  const ps = layered.mesh.polygons;
  const order = ps.map((p, i) => i).sort((a, b) => ps[a].height - ps[b].height);
  for (const i of order) {
    const p = ps[i];
    const shown = visible(p.height);
    const poly = el("polygon", { points: pointsAttr(p.ring), fill: heightColour(p.height),
      "fill-opacity": shown ? 0.85 : 0.07, stroke: shown ? "white" : "#94a3b8", "stroke-opacity": shown ? 1 : 0.5,
      "stroke-width": 0.8, "vector-effect": "non-scaling-stroke", "data-polygon": i,
      "data-height": p.height.toFixed(2), "class": shown ? "floor" : "floor above-cut" }, layer);
    el("title", {}, poly).textContent = `polygon ${i}, height ${p.height.toFixed(2)}, piece ${p.piece}`;
  }
}

/** The floor a click would take, outlined, and the floors under the cursor, listed. */
function drawHere() {
  const layer = $("bands");
  layer.replaceChildren();
  const ps = layered.mesh.polygons;
  const list = $("floors");
  list.replaceChildren();
  if (layered.here.length === 0) {
    list.textContent = layered.cursor ? "no floor under the cursor (below the cut)" : "";
    return;
  }
  const chosen = layered.here[layered.pick];
  el("polygon", { points: pointsAttr(ps[chosen].ring), fill: "none", stroke: "#111827", "stroke-width": 2.5,
    "vector-effect": "non-scaling-stroke", "pointer-events": "none", "data-chosen": chosen }, layer);
  list.append(`Floors here (top first)${layered.here.length > 1 ? ", F: next" : ""}: `);
  layered.here.forEach((i, k) => {
    const b = document.createElement(k === layered.pick ? "strong" : "span");
    b.textContent = `${ps[i].height.toFixed(1)}`;
    b.style.borderBottom = `3px solid ${heightColour(ps[i].height)}`;
    b.dataset.polygon = i;
    list.append(k ? " · " : "", b);
  });
}

/** The path, segment by segment: solid on floors at or below the cut, dashed and faint above. */
function drawLayeredPath() {
  const layer = $("paths");
  layer.replaceChildren();
  const r = layered.result;
  if (!r) return;
  const pts = r.path;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [a, b] = [pts[i].position, pts[i + 1].position];
    const [ha, hb] = [heightOf(a), heightOf(b)];
    const shown = visible(ha) && visible(hb);
    const [[x1, y1], [x2, y2]] = [planOf(a), planOf(b)];
    const seg = el("line", { x1, y1, x2, y2, stroke: r.valid ? "#111827" : INVALID,
      "stroke-width": shown ? 3 : 2, "stroke-opacity": shown ? 1 : 0.45, "stroke-linecap": "round",
      "vector-effect": "non-scaling-stroke", "data-segment": i, "data-on-cut": shown }, layer);
    if (!shown) seg.setAttribute("stroke-dasharray", "5 4");
    el("title", {}, seg).textContent = `height ${ha.toFixed(2)} → ${hb.toFixed(2)} (polygons ${pts[i].polygon} → ${pts[i + 1].polygon})`;
  }
}

function drawLayeredEnds() {
  const layer = $("ends");
  layer.replaceChildren();
  for (const [which, end, fill] of [["start", layered.start, "#16a34a"], ["goal", layered.goal, "#dc2626"]]) {
    if (!end) continue;
    const [x, y] = end.plan;
    const g = el("g", { "data-layered-end": which, "pointer-events": "none" }, layer);
    el("circle", { cx: x, cy: y, r: 0.9, fill, stroke: "white", "stroke-width": 2, "vector-effect": "non-scaling-stroke" }, g);
    el("text", { x, y, "font-size": 1.1, "text-anchor": "middle", "dominant-baseline": "central", fill: "white",
      "font-weight": 700, "font-family": "system-ui, sans-serif" }, g).textContent = which === "start" ? "S" : "G";
  }
}

/** A navmesh JSON file: added to the world list and shown. */
async function loadNavmeshFile(file) {
  const text = await file.text();
  await showLayered(file.name, text);
  const opt = new Option(`${file.name} (layered)`, `layered-file:${file.name}`, true, true);
  $("world").append(opt);
  state.uploads.set(opt.value, { layeredText: text, name: file.name });
}

// ---- the cursor, clicks and keys (called by app.js's mouse handlers) -------------------

function hoverLayered(q) {
  const here = floorsAt(q);
  if (here.join() !== layered.here.join()) layered.pick = 0;
  layered.here = here; layered.cursor = q;
  drawHere();
}

function clickLayered(q, shift) {
  hoverLayered(q);
  const chosen = layered.here[layered.pick];
  if (chosen === undefined) { status(`no floor at (${q.map((v) => v.toFixed(1))}) below the cut`, true); return; }
  const end = { plan: q, polygon: chosen, height: layered.mesh.polygons[chosen].height };
  if (!layered.start || shift) layered.start = end; else layered.goal = end;
  drawLayeredEnds();
  if (layered.goal) planLayered(); else status(`${layered.name}: now click to set the goal`);
}

/** F: the next floor down under the cursor (wrapping to the top). */
function nextFloor() {
  if (layered.here.length < 2) return;
  layered.pick = (layered.pick + 1) % layered.here.length;
  drawHere();
}

function setCut(value) {
  layered.cut = value;
  $("cut-out").textContent = value;
  if (layered.cursor) layered.here = floorsAt(layered.cursor);
  layered.pick = 0;
  drawLayered();
}

// ---- planning -------------------------------------------------------------------------

async function planLayered() {
  const { start, goal, name } = layered;
  if (!start || !goal) return;
  const req = {
    ...layered.source, mesh: false, radius: Number($("radius").value), preset: $("preset").value,
    start: { plan: start.plan, polygon: start.polygon }, goal: { plan: goal.plan, polygon: goal.polygon },
  };
  const seq = ++layered.seq;
  status("Planning…");
  try {
    const { plan } = await api("/api/layered", req);
    if (seq !== layered.seq || !state.layered) return;
    layered.result = plan;
    const [hs, hg] = [heightOf(plan.start), heightOf(plan.goal)];
    status(`${name}: height ${hs.toFixed(1)} → ${hg.toFixed(1)}, length ${plan.length.toFixed(2)} ` +
      `(plan view ${plan.plan_length.toFixed(2)}), ${plan.path.length} points, min clearance ${plan.min_clearance.toFixed(2)}` +
      (plan.valid ? "" : " (NOT VALID)") +
      plan.skipped.map((s) => `; ${skipText(s)}`).join(""), !plan.valid);
  } catch (e) {
    if (seq !== layered.seq) return;
    layered.result = null;
    status(e.message, true);
  }
  drawLayeredPath();
}
