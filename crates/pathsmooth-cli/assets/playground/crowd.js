// pathsmooth playground, crowd mode: POST /api/crowd runs a crowd (on the server, or in the
// static build's worker: agents, doors, a truck) on the world shown, and the page plays its frames: agents as discs of
// their radius, their paths faint, doors filled while closed, the truck as a disc. Loaded
// before app.js; its functions use app.js's helpers ($, el, api, status, state, stopPlay,
// plan) when they are called.
"use strict";

const crowd = {
  seq: 0,        // run counter: a new Run (or leaving the mode) drops older answers
  anim: null,    // {frame: requestAnimationFrame id}
  abort: null,   // the AbortController of the request on its way
  result: null,  // the last answer of /api/crowd
};

const inCrowdMode = () => document.body.classList.contains("crowd-mode");

/** Switches between the paths (one start, one goal) and the crowd. */
function setMode(mode) {
  const on = mode === "crowd";
  $("mode-paths").setAttribute("aria-pressed", String(!on));
  $("mode-crowd").setAttribute("aria-pressed", String(on));
  if (on === inCrowdMode()) return;
  document.body.classList.toggle("crowd-mode", on);
  if (on) {
    stopPlay();
    for (const id of ["bands", "paths", "ends", "disks"]) $(id).replaceChildren();
    status(`${state.world?.name ?? "no world"}: pick the crowd's settings and press Run`);
  } else {
    leaveCrowd();
    plan();
  }
}

/** Leaves the crowd mode without planning (for a layered world, which has no crowd). */
function leaveCrowd() {
  stopCrowd();
  document.body.classList.remove("crowd-mode");
  $("mode-paths").setAttribute("aria-pressed", "true");
  $("mode-crowd").setAttribute("aria-pressed", "false");
}

/** Stops the animation, drops any answer still on its way, clears the crowd's layer. */
function stopCrowd() {
  crowd.seq++;
  // A request still on its way is aborted: the server stops its work when the connection
  // closes (the static build ends its worker), and this client's next request does not
  // wait for it.
  if (crowd.abort) crowd.abort.abort();
  crowd.abort = null;
  if (crowd.anim) cancelAnimationFrame(crowd.anim.frame);
  crowd.anim = null;
  crowd.result = null;
  const layer = $("crowd");
  layer.replaceChildren();
  for (const k of ["frame", "drawn", "done"]) delete layer.dataset[k];
  $("clock").hidden = true;
}

/** The answer's contacts in words: `pathsmooth crowd`'s line, and what else was counted. */
function contactsText(r) {
  const c = r.contacts;
  let text = `${r.line} · invalid paths ${c.invalid}`;
  if (r.truck) text += ` · truck hits ${c.truck_hits}`;
  if (r.truck_note) text += ` · ${r.truck_note}`;
  return text;
}

async function runCrowd() {
  stopCrowd();
  const seq = crowd.seq;
  const line = $("crowd-line");
  line.textContent = "";
  line.classList.remove("bad");
  delete line.dataset.overlaps;
  if (!state.world || state.world.text !== undefined) {
    status("the crowd runs on the worlds on offer: pick one in the list (not an uploaded map)", true);
    return;
  }
  const seed = Number($("crowd-seed").value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    status(`seed ${$("crowd-seed").value}: give a whole number ≥ 0`, true);
    return;
  }
  const req = {
    world: state.world.name, agents: Number($("crowd-agents").value), seconds: Number($("crowd-seconds").value),
    seed, avoid: $("crowd-avoid").checked, doors: $("crowd-doors").checked, truck: $("crowd-truck").checked,
  };
  status(`${req.world}: simulating ${req.agents} agents for ${req.seconds} s…`);
  let r;
  crowd.abort = new AbortController();
  try {
    r = await api("/api/crowd", req, crowd.abort.signal);
  } catch (e) {
    if (seq === crowd.seq) status(e.message, true);
    return;
  }
  crowd.abort = null;
  if (seq !== crowd.seq || !inCrowdMode()) return;
  crowd.result = r;
  line.textContent = contactsText(r);
  line.dataset.overlaps = String(r.contacts.overlaps);
  line.classList.toggle("bad", r.contacts.overlaps + r.contacts.wall_hits + r.contacts.invalid > 0);
  status(`${r.world}: ${r.contacts.agents} agents, ${r.seconds} s, ${r.frames.length} frames` +
    (r.doors.length ? `, ${r.doors.length} doors` : "") + (r.truck ? ", a truck" : "") +
    (r.avoid ? ", avoiding" : ", not avoiding") + (r.paths_cut_at !== null ? ` (paths shown up to ${(r.paths_cut_at / r.fps).toFixed(2)} s: too many points)` : ""));
  playCrowd(r);
}

/** Agent i's colour. */
const agentColour = (i) => `hsl(${(i * 137.5) % 360}, 62%, 48%)`;

/** Plays the answer's frames in real time, interpolating between them. */
function playCrowd(r) {
  const layer = $("crowd");
  const pathsG = el("g", { "data-layer": "paths" }, layer);
  const doorsG = el("g", { "data-layer": "doors" }, layer);
  const agentsG = el("g", { "data-layer": "agents" }, layer);
  const lines = r.frames[0].at.length / 2;
  const paths = Array.from({ length: lines }, () => el("polyline", { fill: "none", stroke: "#475569",
    "stroke-opacity": 0.35, "stroke-width": 1, "vector-effect": "non-scaling-stroke" }, pathsG));
  const doors = r.doors.map(({ min, max }, i) => el("rect", { x: min[0], y: min[1], width: max[0] - min[0],
    height: max[1] - min[1], stroke: "#9a3412", "stroke-width": 1.5, "vector-effect": "non-scaling-stroke",
    "data-door": i }, doorsG));
  const truck = r.truck && el("circle", { r: r.truck.radius, fill: "#f59e0b", "fill-opacity": 0.85,
    stroke: "#78350f", "stroke-width": 1.5, "vector-effect": "non-scaling-stroke", "data-truck": "" }, agentsG);
  const dots = Array.from({ length: lines }, (_, i) => el("circle", { r: r.radius, fill: agentColour(i),
    stroke: "white", "stroke-width": 1, "vector-effect": "non-scaling-stroke", "data-agent": i }, agentsG));
  const last = r.frames.length - 1;
  let shownPaths = -1, drawn = 0;
  const t0 = performance.now();
  $("clock").hidden = false;
  const tick = (now) => {
    // (A frame's time can be a little before t0: the frame began before playCrowd ran.)
    const f = Math.min(Math.max(((now - t0) / 1000) * r.fps, 0), last);
    const i = Math.floor(f), k = f - i;
    const a = r.frames[i], b = r.frames[Math.min(i + 1, last)];
    for (let n = 0; n < dots.length; n++) {
      dots[n].setAttribute("cx", a.at[2 * n] + (b.at[2 * n] - a.at[2 * n]) * k);
      dots[n].setAttribute("cy", a.at[2 * n + 1] + (b.at[2 * n + 1] - a.at[2 * n + 1]) * k);
    }
    doors.forEach((d, n) => {
      const closed = a.doors[n];
      d.setAttribute("fill", closed ? "#9a3412" : "none");
      d.setAttribute("stroke-dasharray", closed ? "" : "4 3");
      d.dataset.closed = String(closed);
    });
    if (truck) {
      truck.setAttribute("cx", a.truck[0] + (b.truck[0] - a.truck[0]) * k);
      truck.setAttribute("cy", a.truck[1] + (b.truck[1] - a.truck[1]) * k);
    }
    // The paths of the latest frame that has them; none once the server left them out.
    let p = -1;
    for (let j = 0; j < r.paths.length && r.paths[j].frame <= i; j++) p = j;
    if (r.paths_cut_at !== null && i >= r.paths_cut_at) p = -2;
    if (p !== shownPaths) {
      shownPaths = p;
      paths.forEach((line, n) => {
        if (p >= 0) line.setAttribute("points", pointsAttr(r.paths[p].paths[n]));
        else line.removeAttribute("points");
      });
    }
    layer.dataset.frame = String(i);
    layer.dataset.drawn = String(++drawn);
    $("clock").textContent = `t = ${(i / r.fps + k / r.fps).toFixed(2)} s of ${r.seconds} s`;
    if (i < last) crowd.anim.frame = requestAnimationFrame(tick);
    else layer.dataset.done = "true";
  };
  crowd.anim = { frame: requestAnimationFrame(tick) };
}

function setupCrowd() {
  for (const id of ["crowd-agents", "crowd-seconds"]) {
    const input = $(id), out = $(`${id}-out`);
    const show = () => { out.textContent = input.value; };
    show();
    input.addEventListener("input", show);
  }
  $("mode-paths").onclick = () => setMode("paths");
  $("mode-crowd").onclick = () => setMode("crowd");
  $("crowd-run").onclick = runCrowd;
}
