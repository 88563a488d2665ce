// pathsmooth playground: draws a world and the paths POST /api/plan returns for it.
// Plain modern JS, no framework. World units are cells; the SVG's viewBox is in cells.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  "astar": "#4b5563", "shortcut": "#4e79a7", "chaikin": "#f28e2b",
  "catmull-rom": "#76b7b2", "shortcut-chaikin": "#59a14f", "shortcut-catmull-rom": "#b6992d",
  "funnel": "#b07aa1", "relax": "#d37295", "corridor": "#9c755f",
};
const INVALID = "#dc2626";
const $ = (id) => document.getElementById(id);
/** `step "relax" skipped: <reason>`: a step that did not take effect (the path is its input). */
const skipText = (s) => `step "${s.step}" skipped: ${s.reason}`;

const state = {
  methods: [],          // every method name, in display order
  on: new Set(),        // methods switched on
  world: null,          // {name, width, height, rows, areas?, text?} (areas: rows of . S W @; text: an uploaded map)
  start: null, goal: null,   // cells [x, y]
  result: null,         // the last answer of /api/plan
  view: null,           // viewBox {x, y, w, h}
  seq: 0,               // request counter: late answers to old requests are dropped
  playing: null,        // animation state
  layered: false,       // a layered navmesh is shown (layered.js)
};

// ---- API ------------------------------------------------------------------------------

// The API is answered by `pathsmooth serve` (fetch), or, in the static build (whose
// index.html carries <meta name="playground" content="static">), by the same handlers in
// WebAssembly in a module Web Worker (worker.js): the page never freezes on long work.
const STATIC = document.querySelector('meta[name="playground"]')?.content === "static";

/** GET `path` (no body) or POST `body` as JSON; resolves to the answer, throws its error. */
async function api(path, body, signal = undefined) {
  if (STATIC) return engine.request(path, body, signal);
  const init = body === undefined ? { signal } : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal,
  };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

/** The static build's worker: requests posted as {id, method, path, body}, answered as
 *  {id, body} or {id, error, status}. WebAssembly cannot be interrupted, so aborting a
 *  request ends the worker and starts a new one; the requests still waiting in it are sent
 *  again to the new one. Nothing has to be uploaded again: the requests carry an uploaded
 *  map's text, and the new worker builds its world on first use. */
const engine = {
  worker: null,
  seq: 0,
  pending: new Map(), // id → {message, resolve, reject}

  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.worker.onmessage = ({ data }) => {
      const p = this.pending.get(data.id);
      if (!p) return;
      this.pending.delete(data.id);
      if (data.error === undefined) p.resolve(JSON.parse(data.body));
      else p.reject(Object.assign(new Error(data.error), { status: data.status }));
      if (data.fatal) this.restart();
    };
    // The module failed to load (or the worker died): every request waiting fails, and the
    // next one starts a new worker.
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.worker.terminate();
      this.worker = null;
      const why = new Error(`the playground's WebAssembly worker failed: ${e.message || "it could not start"}`);
      for (const p of this.pending.values()) p.reject(why);
      this.pending.clear();
    };
    for (const p of this.pending.values()) this.worker.postMessage(p.message);
  },

  restart() {
    this.worker?.terminate();
    this.start();
  },

  request(path, body, signal) {
    return new Promise((resolve, reject) => {
      const aborted = () => new DOMException("the request was cancelled", "AbortError");
      if (signal?.aborted) return reject(aborted());
      const id = ++this.seq;
      const message = { id, method: body === undefined ? "GET" : "POST", path, body: body === undefined ? "" : JSON.stringify(body) };
      this.pending.set(id, { message, resolve, reject });
      signal?.addEventListener("abort", () => {
        if (!this.pending.delete(id)) return;
        reject(aborted());
        this.restart();
      }, { once: true });
      if (this.worker) this.worker.postMessage(message);
      else this.start();
    });
  },
};

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

// ---- SVG helpers ----------------------------------------------------------------------

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const pointsAttr = (pts) => pts.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");

function setView(v) {
  state.view = v;
  $("map").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
}

function fitView() {
  const { width, height, x0 = 0, y0 = 0 } = state.world;
  const pad = 1;
  setView({ x: x0 - pad, y: y0 - pad, w: width + 2 * pad, h: height + 2 * pad });
}

/** The world position (cells) under a mouse event. */
function toWorld(evt) {
  const svg = $("map");
  const p = svg.createSVGPoint();
  p.x = evt.clientX; p.y = evt.clientY;
  const q = p.matrixTransform(svg.getScreenCTM().inverse());
  return [q.x, q.y];
}

const toCell = ([x, y]) => [Math.floor(x), Math.floor(y)];
const cellFree = ([x, y]) => state.world.rows[y]?.[x] === ".";

// ---- drawing --------------------------------------------------------------------------

/** Colours of the areas a map may have (`areas` of GET /api/worlds/{name}). */
const AREA_COLOURS = { S: [190, 200, 140, 255], W: [125, 170, 230, 255] };

/** The map as one pixelated image: a pixel per cell, swamp and water in their colours. */
function drawWorld() {
  const { width, height, rows, areas } = state.world;
  const canvas = document.createElement("canvas");
  canvas.width = width; canvas.height = height;
  const ctx = canvas.getContext("2d");
  const img = ctx.createImageData(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      const free = rows[y][x] === ".";
      const area = areas && AREA_COLOURS[areas[y][x]];
      img.data.set(area || (free ? [250, 250, 249, 255] : [51, 65, 85, 255]), i);
    }
  }
  ctx.putImageData(img, 0, 0);
  const layer = $("world-layer");
  layer.replaceChildren();
  el("image", { href: canvas.toDataURL(), x: 0, y: 0, width, height, preserveAspectRatio: "none" }, layer);
  el("rect", { x: 0, y: 0, width, height, fill: "none", stroke: "#111827", "stroke-width": 1.5,
    "vector-effect": "non-scaling-stroke" }, layer);
}

/** The corridor method's disks (where its points may go), when asked for. */
function drawDisks() {
  const layer = $("disks");
  layer.replaceChildren();
  const disks = state.result?.paths.corridor?.corridor;
  if (!disks || !$("show-disks").checked) return;
  for (const [cx, cy, r] of disks) {
    el("circle", { cx, cy, r: Math.max(r, 0.05), fill: COLOURS.corridor, "fill-opacity": 0.08,
      stroke: COLOURS.corridor, "stroke-opacity": 0.5, "stroke-width": 1, "vector-effect": "non-scaling-stroke" }, layer);
  }
}

function drawPaths() {
  const bands = $("bands"), paths = $("paths");
  bands.replaceChildren(); paths.replaceChildren();
  drawDisks();
  const r = state.result;
  if (!r) return;
  const radius = r.radius;
  // The raw A* path every method starts from, thin and dashed.
  if (!state.on.has("astar")) {
    el("polyline", { points: pointsAttr(r.astar), fill: "none", stroke: "#9ca3af", "stroke-width": 1.2,
      "stroke-dasharray": "3 3", "vector-effect": "non-scaling-stroke", "data-method": "astar-raw" }, paths);
  }
  for (const m of state.methods) {
    const p = r.paths[m];
    if (!p) continue;
    const colour = p.valid ? COLOURS[m] : INVALID;
    if (radius > 0) {
      el("polyline", { points: pointsAttr(p.points), fill: "none", stroke: colour, "stroke-opacity": 0.16,
        "stroke-width": 2 * radius, "stroke-linecap": "round", "stroke-linejoin": "round" }, bands);
    }
    const line = el("polyline", { points: pointsAttr(p.points), fill: "none", stroke: colour,
      "stroke-width": 2.5, "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke",
      "data-method": m, "data-valid": p.valid }, paths);
    if (!p.valid) line.setAttribute("stroke-dasharray", "6 4");
    el("title", {}, line).textContent = `${m}: length ${p.length.toFixed(2)}${p.valid ? "" : " (NOT VALID)"}` +
      p.skipped.map((s) => `; ${skipText(s)}`).join("");
  }
}

function drawEnds() {
  const ends = $("ends");
  ends.replaceChildren();
  for (const [which, cell, fill] of [["start", state.start, "#16a34a"], ["goal", state.goal, "#dc2626"]]) {
    if (!cell) continue;
    const g = el("g", { "data-end": which }, ends);
    el("circle", { cx: cell[0] + 0.5, cy: cell[1] + 0.5, r: 0.75, fill, stroke: "white",
      "stroke-width": 2, "vector-effect": "non-scaling-stroke", "data-end": which }, g);
    const t = el("text", { x: cell[0] + 0.5, y: cell[1] + 0.5, "font-size": 0.9, "text-anchor": "middle",
      "dominant-baseline": "central", fill: "white", "font-weight": 700, "pointer-events": "none",
      "font-family": "system-ui, sans-serif" }, g);
    t.textContent = which === "start" ? "S" : "G";
  }
}

function drawLegend() {
  const legend = $("legend");
  legend.replaceChildren();
  const r = state.result;
  for (const m of state.methods) {
    if (!state.on.has(m)) continue;
    const li = document.createElement("li");
    const p = r?.paths[m];
    const failed = r && !p;
    const invalid = p && !p.valid;
    const skipped = p && p.skipped.length > 0;
    li.className = invalid || failed ? "invalid" : skipped ? "skipped" : "";
    li.dataset.method = m;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = invalid ? INVALID : COLOURS[m];
    li.append(sw, `${m}${invalid ? " (invalid)" : failed ? " (failed)" : ""}`);
    // A step that did not take effect: said in words, with its step (the reason is in the table).
    if (skipped) li.append(` ⚠ ${p.skipped.map((s) => `step "${s.step}" skipped`).join(", ")}`);
    legend.append(li);
  }
  legend.hidden = legend.children.length === 0;
}

const fmt = (v, digits) => (v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(digits));

function drawTable() {
  const body = $("metrics").tBodies[0];
  body.replaceChildren();
  const r = state.result;
  // The cost column, beside length, when the answer was planned under area costs.
  const costs = Boolean(r && r.area_costs);
  $("cost-th").hidden = !costs;
  if (!r) return;
  for (const m of state.methods) {
    if (!state.on.has(m)) continue;
    const tr = body.insertRow();
    tr.dataset.method = m;
    const sw = tr.insertCell();
    sw.innerHTML = `<span class="swatch" style="background:${COLOURS[m]}"></span>`;
    const name = tr.insertCell();
    name.textContent = m;
    const p = r.paths[m];
    if (!p) {
      const td = tr.insertCell();
      td.colSpan = costs ? 9 : 8; td.className = "error";
      td.textContent = `error: ${r.errors[m] ?? "not planned"}`;
      continue;
    }
    if (p.length === r.shortest) tr.className = "best";
    const valid = tr.insertCell();
    valid.textContent = p.valid ? "yes" : "NO";
    if (!p.valid) valid.className = "no";
    const cells = [[p.length, 2], [p.vs_shortest, 3], [p.max_turn_deg, 1], [p.min_clearance, 3],
      [p.follow_s, 2], [p.micros, 0]];
    if (costs) cells.splice(1, 0, [p.cost, 2]);
    for (const [v, d] of cells) {
      tr.insertCell().textContent = fmt(v, d);
    }
    const dl = document.createElement("button");
    dl.textContent = "JSON";
    dl.title = `download the ${m} path as JSON`;
    dl.onclick = () => download(`${m}.json`, "application/json", JSON.stringify({ points: p.points }));
    tr.insertCell().append(dl);
    if (p.skipped.length > 0) {
      // The row is the skipped step's input, not its result: a flag on the row and the
      // reasons in words on a row of their own under it.
      tr.classList.add("skipped");
      const flag = document.createElement("span");
      flag.className = "skip-flag";
      flag.textContent = "⚠ skipped";
      name.append(" ", flag);
      const note = body.insertRow();
      note.className = "skip-note";
      note.dataset.skippedFor = m;
      note.insertCell();
      const td = note.insertCell();
      td.colSpan = costs ? 10 : 9;
      td.textContent = `⚠ ${m}: ${p.skipped.map(skipText).join("; ")} (the path shown is the step's input)`;
    }
  }
}

function redraw() {
  drawPaths(); drawEnds(); drawLegend(); drawTable();
}

// ---- planning -------------------------------------------------------------------------

let timer = null;
/** Plans again shortly (slider moves and drags come in bursts). */
function schedulePlan(delay = 120) {
  clearTimeout(timer);
  timer = setTimeout(plan, delay);
}

async function plan() {
  stopPlay();
  if (inCrowdMode()) { status(`${state.world?.name ?? "no world"}: pick the crowd's settings and press Run`); return; }
  if (state.layered) { await planLayered(); return; }
  if (!state.world || !state.start || !state.goal) { redraw(); return; }
  const methods = state.methods.filter((m) => state.on.has(m));
  const req = {
    start: state.start, goal: state.goal, methods,
    radius: Number($("radius").value), passes: Number($("passes").value), alpha: Number($("alpha").value),
    corridor_solver: $("corridor_solver").value,
    corridor_alpha: Number($("corridor_alpha").value), corridor_beta: Number($("corridor_beta").value),
    // Always sent (an empty field: every area 1, water excluded), so the server's
    // default applies only to the field's first value.
    area_costs: $("area_costs").value.trim(),
  };
  if (state.world.text !== undefined) req.map = state.world.text; else req.world = state.world.name;
  const seq = ++state.seq;
  status("Planning…");
  try {
    const result = await api("/api/plan", req);
    if (seq !== state.seq) return;
    state.result = result;
    const failed = Object.keys(result.errors).length;
    const skipped = Object.values(result.paths).filter((p) => p.skipped.length > 0).length;
    status(`${state.world.name}: (${state.start}) → (${state.goal}), A* length ${result.astar_length.toFixed(2)}` +
      (result.area_costs ? `, cost ${result.astar_cost.toFixed(2)} (${result.area_costs})` : "") +
      (failed ? `; ${failed} method(s) failed, see the table` : "") +
      (skipped ? `; ${skipped} method(s) skipped a step, see the table` : ""), failed > 0);
  } catch (e) {
    if (seq !== state.seq) return;
    state.result = null;
    status(e.message, true);
  }
  redraw();
}

// ---- worlds and files -----------------------------------------------------------------

async function showWorld(world, start = null, goal = null) {
  leaveLayered();
  stopCrowd();
  state.world = world;
  state.start = start; state.goal = goal; state.result = null;
  drawWorld(); fitView();
  if (start && goal) await plan(); else { redraw(); status(`${world.name}: click to set the start`); }
}

async function loadNamedWorld(info) {
  const grid = await api(`/api/worlds/${encodeURIComponent(info.name)}`);
  await showWorld(grid, info.start ?? null, info.goal ?? null);
}

async function loadMapFile(file) {
  const text = await file.text();
  const grid = await api("/api/map", { map: text, name: file.name });
  grid.text = text;
  const opt = new Option(file.name, `upload:${file.name}`, true, true);
  $("world").append(opt);
  state.uploads.set(opt.value, grid);
  await showWorld(grid);
}

async function loadScenFile(file) {
  const { scenarios } = await api("/api/scenarios", { scen: await file.text() });
  const sel = $("scenario");
  sel.replaceChildren(new Option(`${scenarios.length} scenarios: pick one`, ""));
  scenarios.forEach((s, i) => sel.append(new Option(
    `#${i} bucket ${s.bucket}: (${s.start}) → (${s.goal}), ${s.optimal.toFixed(1)}`, String(i))));
  sel.hidden = false;
  sel.onchange = () => {
    const s = scenarios[Number(sel.value)];
    if (!s) return;
    if (s.map_width !== state.world.width || s.map_height !== state.world.height) {
      status(`scenario is for a ${s.map_width}×${s.map_height} map, this one is ${state.world.width}×${state.world.height}`, true);
      return;
    }
    state.start = s.start; state.goal = s.goal;
    plan();
  };
}

// ---- mouse: click to set ends, drag ends, pan, zoom ----------------------------------

function setupMouse() {
  const svg = $("map");
  let drag = null;   // {kind: "pan" | "start" | "goal", x0, y0, view0, moved}

  svg.addEventListener("pointerdown", (evt) => {
    if (evt.button !== 0 || !state.world) return;
    const end = evt.target.closest("[data-end]")?.dataset.end;
    drag = { kind: end ?? "pan", x0: evt.clientX, y0: evt.clientY, view0: { ...state.view }, moved: false };
    svg.setPointerCapture(evt.pointerId);
  });

  svg.addEventListener("pointermove", (evt) => {
    if (!drag) { if (state.layered) hoverLayered(toWorld(evt)); return; }
    if (Math.hypot(evt.clientX - drag.x0, evt.clientY - drag.y0) > 4) drag.moved = true;
    if (!drag.moved) return;
    if (drag.kind === "pan") {
      svg.classList.add("panning");
      const scale = drag.view0.w / svg.clientWidth;
      const s = Math.max(scale, drag.view0.h / svg.clientHeight);
      setView({ ...drag.view0, x: drag.view0.x - (evt.clientX - drag.x0) * s, y: drag.view0.y - (evt.clientY - drag.y0) * s });
    } else {
      const c = toCell(toWorld(evt));
      const cur = state[drag.kind];
      if (cellFree(c) && (c[0] !== cur[0] || c[1] !== cur[1])) {
        state[drag.kind] = c;
        drawEnds();
        schedulePlan();
      }
    }
  });

  svg.addEventListener("pointerup", (evt) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    svg.classList.remove("panning");
    if (d.moved) return;
    // A click: the first sets the start, later ones the goal, shift-click the start
    // (a click on an end keeps it).
    if (d.kind !== "pan") return;
    if (inCrowdMode()) { clickCrowd(toWorld(evt)); return; }
    if (state.layered) { clickLayered(toWorld(evt), evt.shiftKey); return; }
    const c = toCell(toWorld(evt));
    if (!cellFree(c)) { status(`cell (${c}) is blocked or outside the map`, true); return; }
    if (!state.start || evt.shiftKey) state.start = c; else state.goal = c;
    if (state.goal) plan(); else { drawEnds(); status("now click to set the goal"); }
  });

  svg.addEventListener("wheel", (evt) => {
    if (!state.view) return;
    evt.preventDefault();
    const [wx, wy] = toWorld(evt);
    const f = Math.exp(evt.deltaY * 0.0015);
    const v = state.view;
    const w = Math.min(Math.max(v.w * f, 4), 8 * (state.world.width + 2));
    const k = w / v.w;
    setView({ x: wx - (wx - v.x) * k, y: wy - (wy - v.y) * k, w, h: v.h * k });
  }, { passive: false });
}

// ---- animation ------------------------------------------------------------------------

/** Position at time t by linear interpolation of the server's [t, x, y] samples. */
function sampleAt(samples, t) {
  let lo = 0, hi = samples.length - 1;
  if (t >= samples[hi][0]) return [samples[hi][1], samples[hi][2]];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid][0] <= t) lo = mid; else hi = mid;
  }
  const [t0, x0, y0] = samples[lo], [t1, x1, y1] = samples[hi];
  const f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  return [x0 + (x1 - x0) * f, y0 + (y1 - y0) * f];
}

function stopPlay() {
  if (state.playing) cancelAnimationFrame(state.playing.frame);
  state.playing = null;
  $("agents").replaceChildren();
  $("clock").hidden = true;
  $("play").textContent = "▶ Play";
}

function play() {
  // The button stops a running animation; after one has finished it plays again.
  if (state.playing && !state.playing.done) { stopPlay(); return; }
  stopPlay();
  const r = state.result;
  if (!r) return;
  const runs = state.methods.filter((m) => r.paths[m]).map((m) => {
    const p = r.paths[m];
    const dot = el("circle", { r: Math.max(r.radius, 0.45), fill: p.valid ? COLOURS[m] : INVALID,
      stroke: "white", "stroke-width": 1.5, "vector-effect": "non-scaling-stroke", "data-agent": m }, $("agents"));
    return { m, p, dot };
  });
  if (runs.length === 0) return;
  const end = Math.max(...runs.map((x) => x.p.follow_s));
  const speed = Number($("speed").value);
  const t0 = performance.now();
  $("play").textContent = "■ Stop";
  $("clock").hidden = false;
  const tick = (now) => {
    const t = Math.min(((now - t0) / 1000) * speed, end);
    for (const { p, dot } of runs) {
      const [x, y] = sampleAt(p.samples, t);
      dot.setAttribute("cx", x); dot.setAttribute("cy", y);
    }
    const arrived = runs.filter((x) => x.p.follow_s <= t).map((x) => x.m);
    $("clock").textContent = `t = ${t.toFixed(2)} s` + (arrived.length ? ` · first: ${runs.reduce((a, b) => (b.p.follow_s < a.p.follow_s ? b : a)).m}` : "");
    if (t < end) state.playing.frame = requestAnimationFrame(tick);
    else { $("play").textContent = "▶ Play"; state.playing.done = true; }
  };
  state.playing = { frame: requestAnimationFrame(tick) };
}

// ---- downloads ------------------------------------------------------------------------

function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The current view as a standalone SVG, with the legend drawn in. */
function saveSvg() {
  const svg = $("map").cloneNode(true);
  const v = state.view;
  svg.setAttribute("width", 900);
  svg.setAttribute("height", Math.round((900 * v.h) / v.w));
  const g = el("g", { "font-family": "sans-serif", "font-size": v.w / 45 }, svg);
  let y = v.y + v.w / 30;
  for (const m of state.methods.filter((x) => state.result?.paths[x])) {
    const { valid, skipped } = state.result.paths[m];
    el("rect", { x: v.x + v.w / 60, y: y - v.w / 90, width: v.w / 25, height: v.w / 150,
      fill: valid ? COLOURS[m] : INVALID }, g);
    const t = el("text", { x: v.x + v.w / 15, y, fill: "#111827", stroke: "white", "stroke-width": v.w / 400,
      "paint-order": "stroke" }, g);
    t.textContent = (valid ? m : `${m} (invalid)`) + skipped.map((s) => ` ⚠ step "${s.step}" skipped`).join("");
    y += v.w / 35;
  }
  download("pathsmooth-view.svg", "image/svg+xml", new XMLSerializer().serializeToString(svg));
}

// ---- start ----------------------------------------------------------------------------

function setupControls() {
  for (const id of ["radius", "passes", "alpha", "corridor_alpha", "corridor_beta"]) {
    const input = $(id), out = $(`${id}-out`);
    const show = () => { out.textContent = input.value; };
    show();
    input.addEventListener("input", () => { show(); schedulePlan(); });
  }
  // α and β are Chambolle–Pock's step sizes: ADMM has none.
  $("corridor_solver").onchange = () => {
    const off = $("corridor_solver").value !== "chambolle-pock";
    for (const id of ["corridor_alpha", "corridor_beta"]) $(id).disabled = off;
    schedulePlan();
  };
  $("show-disks").onchange = drawDisks;
  $("area_costs").addEventListener("input", () => schedulePlan(400));
  $("play").onclick = play;
  $("fit").onclick = () => state.world && fitView();
  $("svg-download").onclick = saveSvg;
  $("world").onchange = async () => {
    const value = $("world").value;
    try {
      if (value.startsWith("layered:")) await showLayered(value.slice("layered:".length));
      else if (state.uploads.get(value)?.layeredText !== undefined) {
        const { name, layeredText } = state.uploads.get(value);
        await showLayered(name, layeredText);
      } else if (state.uploads.has(value)) await showWorld(state.uploads.get(value));
      else await loadNamedWorld(state.worlds.find((w) => w.name === value));
    } catch (e) { status(e.message, true); }
  };
  $("map-file").onchange = async (evt) => {
    const file = evt.target.files[0];
    if (file) await loadMapFile(file).catch((e) => status(`${file.name}: ${e.message}`, true));
  };
  $("preset").onchange = () => schedulePlan(0);
  $("cut").addEventListener("input", () => setCut(Number($("cut").value)));
  document.addEventListener("keydown", (evt) => {
    if (state.layered && (evt.key === "f" || evt.key === "F") && !["INPUT", "SELECT", "TEXTAREA"].includes(evt.target.tagName)) nextFloor();
  });
  $("navmesh-file").onchange = async (evt) => {
    const file = evt.target.files[0];
    if (file) await loadNavmeshFile(file).catch((e) => status(`${file.name}: ${e.message}`, true));
  };
  $("scen-file").onchange = async (evt) => {
    const file = evt.target.files[0];
    if (file) await loadScenFile(file).catch((e) => status(`${file.name}: ${e.message}`, true));
  };
}

function setupMethods(all, on) {
  state.methods = all;
  state.on = new Set(on);
  const list = $("methods");
  for (const m of all) {
    const li = document.createElement("li");
    li.innerHTML = `<label><input type="checkbox" value="${m}"><span class="swatch" style="background:${COLOURS[m]}"></span>${m}</label>`;
    const box = li.querySelector("input");
    box.checked = state.on.has(m);
    box.onchange = () => { if (box.checked) state.on.add(m); else state.on.delete(m); schedulePlan(0); };
    list.append(li);
  }
}

async function main() {
  state.uploads = new Map();
  setupControls();
  setupCrowd();
  setupMouse();
  try {
    const [{ methods, default: on }, { worlds, area_costs }] = await Promise.all([api("/api/methods"), api("/api/worlds")]);
    state.worlds = worlds;
    $("area_costs").value = area_costs ?? "";
    setupMethods(methods, on);
    for (const w of worlds) $("world").append(new Option(`${w.name} (${w.width}×${w.height})`, w.name));
    const { examples } = await api("/api/layered");
    const group = document.createElement("optgroup");
    group.label = "Layered navmesh (floors over floors)";
    for (const name of examples) group.append(new Option(`${name} (layered)`, `layered:${name}`));
    $("world").append(group);
    await loadNamedWorld(worlds[0]);
  } catch (e) {
    status(e.message, true);
  }
}

main();
