// pathsmooth playground, crowd mode: POST /api/crowd runs a crowd (on the server, or in the
// static build's worker: agents, doors, a truck) on the world shown, and the page plays its frames: agents as discs of
// their radius, their paths faint, doors filled while closed, the truck as a disc. Live
// runs the crowd for as long as it is shown (POST /api/crowd/live, then
// /api/crowd/live/step for the next half second while the page plays the last: the server
// keeps the client's crowd under a session number, the static build's worker its one
// crowd), and a click on the map sends the agents there. Loaded before app.js; its
// functions use app.js's helpers ($, el, api, status, state, stopPlay, plan) when they are
// called.
"use strict";

const crowd = {
  seq: 0,        // run counter: a new Run (or leaving the mode) drops older answers
  anim: null,    // {frame: requestAnimationFrame id}
  abort: null,   // the AbortController of the request on its way
  result: null,  // the last answer of /api/crowd
  live: null,    // the live crowd shown: {send: [x, y] | null}
};

/** Frames a live crowd's step asks for (half a second at the 20 frames a second sent). */
const LIVE_STEP = 10;

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
  crowd.live = null;
  $("crowd-live").textContent = "● Live";
  const layer = $("crowd");
  layer.replaceChildren();
  for (const k of ["frame", "drawn", "done", "live", "sent"]) delete layer.dataset[k];
  $("clock").hidden = true;
}

/** The crowd's request from the panel (and the world shown), or null after saying why not. */
function crowdRequest() {
  const line = $("crowd-line");
  line.textContent = "";
  line.classList.remove("bad");
  delete line.dataset.overlaps;
  if (!state.world || state.world.text !== undefined) {
    status("the crowd runs on the worlds on offer: pick one in the list (not an uploaded map)", true);
    return null;
  }
  const seed = Number($("crowd-seed").value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    status(`seed ${$("crowd-seed").value}: give a whole number ≥ 0`, true);
    return null;
  }
  return {
    world: state.world.name, agents: Number($("crowd-agents").value), seconds: Number($("crowd-seconds").value),
    seed, avoid: $("crowd-avoid").checked, doors: $("crowd-doors").checked, truck: $("crowd-truck").checked,
  };
}

/** Shows the contacts line of an answer (a run's, or a live step's so far). */
function showContacts(r, truck) {
  const line = $("crowd-line");
  const c = r.contacts;
  let text = `${r.line} · invalid paths ${c.invalid}`;
  if (truck) text += ` · truck hits ${c.truck_hits}`;
  if (r.truck_note) text += ` · ${r.truck_note}`;
  line.textContent = text;
  line.dataset.overlaps = String(c.overlaps);
  line.classList.toggle("bad", c.overlaps + c.wall_hits + c.invalid > 0);
}

async function runCrowd() {
  stopCrowd();
  const seq = crowd.seq;
  const req = crowdRequest();
  if (!req) return;
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
  showContacts(r, r.truck);
  status(`${r.world}: ${r.contacts.agents} agents, ${r.seconds} s, ${r.frames.length} frames` +
    (r.doors.length ? `, ${r.doors.length} doors` : "") + (r.truck ? ", a truck" : "") +
    (r.avoid ? ", avoiding" : ", not avoiding") + (r.paths_cut_at !== null ? ` (paths shown up to ${(r.paths_cut_at / r.fps).toFixed(2)} s: too many points)` : ""));
  playCrowd(r);
}

/** Agent i's colour. */
const agentColour = (i) => `hsl(${(i * 137.5) % 360}, 62%, 48%)`;

/** Draws the crowd of an answer (its agents, doors, truck, paths) in the crowd's layer;
 *  returns {show(a, b, k): the frame a k of the way to b, paths(list): every agent's path
 *  (null: none)}. */
function drawCrowd(r) {
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
  let drawn = 0;
  $("clock").hidden = false;
  return {
    show(a, b, k) {
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
      layer.dataset.drawn = String(++drawn);
    },
    paths(list) {
      paths.forEach((line, n) => {
        if (list) line.setAttribute("points", pointsAttr(list[n]));
        else line.removeAttribute("points");
      });
    },
  };
}

/** Plays the answer's frames in real time, interpolating between them. */
function playCrowd(r) {
  const layer = $("crowd");
  const view = drawCrowd(r);
  const last = r.frames.length - 1;
  let shownPaths = -1;
  const t0 = performance.now();
  const tick = (now) => {
    // (A frame's time can be a little before t0: the frame began before playCrowd ran.)
    const f = Math.min(Math.max(((now - t0) / 1000) * r.fps, 0), last);
    const i = Math.floor(f), k = f - i;
    view.show(r.frames[i], r.frames[Math.min(i + 1, last)], k);
    // The paths of the latest frame that has them; none once the server left them out.
    let p = -1;
    for (let j = 0; j < r.paths.length && r.paths[j].frame <= i; j++) p = j;
    if (r.paths_cut_at !== null && i >= r.paths_cut_at) p = -2;
    if (p !== shownPaths) {
      shownPaths = p;
      view.paths(p >= 0 ? r.paths[p].paths : null);
    }
    layer.dataset.frame = String(i);
    $("clock").textContent = `t = ${(i / r.fps + k / r.fps).toFixed(2)} s of ${r.seconds} s`;
    if (i < last) crowd.anim.frame = requestAnimationFrame(tick);
    else layer.dataset.done = "true";
  };
  crowd.anim = { frame: requestAnimationFrame(tick) };
}

/** The live crowd (static build): started in the worker, then stepped half a second at a
 *  time while the page plays the frames it has; a click on the map sends the agents there
 *  with the next step. The button stops it. */
async function liveCrowd() {
  if (crowd.live) { stopCrowd(); status("the live crowd stopped"); return; }
  stopCrowd();
  const seq = crowd.seq;
  const req = crowdRequest();
  if (!req) return;
  status(`${req.world}: starting ${req.agents} agents…`);
  let r;
  try {
    r = await api("/api/crowd/live", req);
  } catch (e) {
    if (seq === crowd.seq) status(e.message, true);
    return;
  }
  if (seq !== crowd.seq || !inCrowdMode()) return;
  const layer = $("crowd");
  const view = drawCrowd(r);
  view.paths(r.paths[0]?.paths ?? null);
  showContacts(r, r.truck);
  const live = crowd.live = { send: null };
  // The server numbers its live crowds; the static build's worker has one.
  const stepPath = r.session === undefined ? "/api/crowd/live/step" : `/api/crowd/live/step?session=${r.session}`;
  $("crowd-live").textContent = "■ Stop live";
  layer.dataset.live = "true";
  status(`${r.world}: ${r.contacts.agents} agents live` + (r.truck ? ", a truck" : "") +
    (r.avoid ? ", avoiding" : ", not avoiding") + ": click on the map to send them there");
  // frames[0] is frame `base` of the crowd; frame f is shown f / fps seconds after t0, and
  // t0 moves on while no frame is there to show (the answer behind), so that the agents
  // wait rather than jump.
  const frames = [r.frames[0]];
  const pathsAt = []; // [{frame, paths}] waiting for their frame
  let base = 0, t0 = performance.now(), busy = false;
  const more = async () => {
    busy = true;
    const body = { frames: LIVE_STEP };
    if (live.send) { body.send = live.send; live.send = null; }
    try {
      const s = await api(stepPath, body);
      if (seq !== crowd.seq) return;
      frames.push(...s.frames);
      pathsAt.push({ frame: base + frames.length - 1, paths: s.paths });
      showContacts(s, r.truck);
      if (s.sent) {
        layer.dataset.sent = String(s.sent);
        status(`${s.sent} agents sent to (${body.send.map((v) => v.toFixed(1))}): click elsewhere to send them again`);
      }
    } catch (e) {
      if (seq !== crowd.seq) return;
      // A refused click (a wall, out of reach) is said, and the crowd goes on as it was;
      // any other error (the worker restarted, say) ends the live crowd.
      if (body.send) status(e.message, true);
      else { stopCrowd(); status(`the live crowd stopped: ${e.message}`, true); return; }
    }
    busy = false;
  };
  const tick = (now) => {
    if (seq !== crowd.seq) return;
    const last = base + frames.length - 1;
    // (An animation frame's time can be a little before t0: it began before t0 was read.)
    let f = Math.max(((now - t0) / 1000) * r.fps, base);
    if (f > last) { t0 += ((f - last) / r.fps) * 1000; f = last; }
    const i = Math.floor(f), k = f - i;
    view.show(frames[i - base], frames[Math.min(i + 1, last) - base], k);
    while (pathsAt.length && pathsAt[0].frame <= i) view.paths(pathsAt.shift().paths);
    // The frames played are dropped (all but the one shown).
    if (i - base > 2 * LIVE_STEP) { frames.splice(0, i - base); base = i; }
    layer.dataset.frame = String(i);
    $("clock").textContent = `t = ${(f / r.fps).toFixed(2)} s, live`;
    if (!busy && last - f < LIVE_STEP) more();
    crowd.anim.frame = requestAnimationFrame(tick);
  };
  crowd.anim = { frame: requestAnimationFrame(tick) };
}

/** A click on the map in crowd mode: the live crowd's agents are sent there. */
function clickCrowd([x, y]) {
  if (!crowd.live) {
    status("press Live to run a crowd you can send around by clicking");
    return;
  }
  crowd.live.send = [x, y];
  status(`sending the agents to (${x.toFixed(1)}, ${y.toFixed(1)})…`);
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
  $("crowd-live").onclick = liveCrowd;
}
