// pathsmooth with three.js: a navmesh drawn from its polygons, a smoothed path between two
// clicked points, and a crowd walking the navmesh. The library runs on the main thread
// (every call here takes milliseconds; web/ shows it in a Web Worker).
//
// To open it: `npm run build` in crates/pathsmooth-wasm, serve the repository root with
// any static server and open /crates/pathsmooth-wasm/examples/three/index.html.
//
// The library's coordinates are the navmesh file's own: y up (Detour, Unity, Godot) or z up
// (Polyanya's 2D meshes). Everything is drawn in one group (`level`) in those coordinates,
// turned so that the file's up is three.js's y. The crowd (`new Crowd(mesh, …)`) walks the
// mesh's plan view, so it needs a navmesh that is one floor (no polygon over another; the
// library refuses any other and says why); `positions3` puts its agents on the floor.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { Line2 } from "three/addons/lines/Line2.js";
import { LineGeometry } from "three/addons/lines/LineGeometry.js";
import { LineMaterial } from "three/addons/lines/LineMaterial.js";
import init, { Crowd, Pipeline, SurfaceMesh } from "../../index.js";
// The package's seeded generator (mulberry32), as its tests draw: the same crowd on every load.
import { random } from "../../test/draw.mjs";

const CORPUS = new URL("../../../pathsmooth/tests/data/corpus/", import.meta.url);
const AGENTS = 32;
const SEED = 42;

const canvas = document.getElementById("view");
const statusLine = document.getElementById("status");
const levelSelect = document.getElementById("level");
const fileInput = document.getElementById("file");
const gatherButton = document.getElementById("gather");
const wanderButton = document.getElementById("wander");


// --- three.js: renderer (when WebGL is there), scene, camera, controls -------------------

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x20242b);
scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(0.4, 1, 0.3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(50, 1, 0.01, 1000);

let renderer = null;
const webgl = { ok: false, renderer: null, error: null };
try {
  // preserveDrawingBuffer: the canvas keeps its last frame, so that a test can read it.
  renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const gl = renderer.getContext();
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  webgl.ok = true;
  webgl.renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
} catch (e) {
  // No WebGL (a browser without a GPU or software rendering): the library still plans and
  // the crowd still walks (window.example), nothing is drawn.
  webgl.error = String(e?.message ?? e);
}
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = true;

function resize() {
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
  renderer?.setSize(w, h, false);
}
window.addEventListener("resize", resize);
resize();

// --- the level: mesh, pipeline, crowd ----------------------------------------------------

/** Everything of the level shown; replaced by `load`. */
let L = null;
let picks = []; // the clicked points, in the mesh's coordinates: [start] or [start, goal]
let lastPath = null; // { points, polygons, flags } of the last plan, plain arrays
let lastError = null;
let planMs = null; // how long the last plan took
let frames = 0; // crowd updates so far
let mode = "wander"; // or "gather": every agent walks to the goal

/** The plan-view point of a 3D point of the mesh, and back (UpAxis::split / join). */
const planOf = (up, x, y, z) => (up === "y" ? [x, z] : [x, y]);
const upVector = (up) => (up === "y" ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(0, 0, 1));

function setStatus(text) {
  statusLine.textContent = text;
}

/** Frees a level's library objects and removes its drawing. */
function dispose(level) {
  if (!level) return;
  scene.remove(level.group);
  level.group.traverse((o) => {
    o.geometry?.dispose();
    o.material?.dispose();
  });
  level.crowd?.free();
  level.pipeline.free();
  level.mesh.free();
}

/** The navmesh's polygons as a BufferGeometry (each convex polygon fanned into triangles),
 *  coloured by height, and the polygons' outlines. */
function meshGeometry(mesh) {
  const v = mesh.vertices();
  const idx = mesh.polygonIndices();
  const counts = mesh.polygonCounts();
  const hAxis = mesh.up === "y" ? 1 : 2;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = hAxis; i < v.length; i += 3) {
    lo = Math.min(lo, v[i]);
    hi = Math.max(hi, v[i]);
  }
  const colours = new Float32Array(v.length);
  const low = new THREE.Color(0x3f7fbf);
  const high = new THREE.Color(0xe0b050);
  const c = new THREE.Color();
  for (let i = 0; i < v.length / 3; i++) {
    c.lerpColors(low, high, hi > lo ? (v[3 * i + hAxis] - lo) / (hi - lo) : 0);
    colours.set([c.r, c.g, c.b], 3 * i);
  }
  const triangles = [];
  const edges = [];
  let at = 0;
  for (const n of counts) {
    for (let k = 1; k + 1 < n; k++) triangles.push(idx[at], idx[at + k], idx[at + k + 1]);
    for (let k = 0; k < n; k++) edges.push(idx[at + k], idx[at + ((k + 1) % n)]);
    at += n;
  }
  const floor = new THREE.BufferGeometry();
  floor.setAttribute("position", new THREE.BufferAttribute(new Float32Array(v), 3));
  floor.setAttribute("color", new THREE.BufferAttribute(colours, 3));
  floor.setIndex(triangles);
  floor.computeVertexNormals();
  const outline = new THREE.BufferGeometry();
  outline.setAttribute("position", floor.getAttribute("position"));
  outline.setIndex(edges);
  return { floor, outline };
}

/** Random points of the mesh in plan view, uniform over its area. */
function pointSampler(mesh, rand) {
  const v = mesh.vertices();
  const idx = mesh.polygonIndices();
  const counts = mesh.polygonCounts();
  const tris = []; // [ax, ay, bx, by, cx, cy] in plan view
  const cumulative = [];
  let total = 0;
  let at = 0;
  const p = (i) => planOf(mesh.up, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (const n of counts) {
    for (let k = 1; k + 1 < n; k++) {
      const [a, b, c] = [p(idx[at]), p(idx[at + k]), p(idx[at + k + 1])];
      const area = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
      if (area <= 0) continue;
      total += area;
      tris.push([a, b, c]);
      cumulative.push(total);
    }
    at += n;
  }
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    const [a, b, c] = tris[lo];
    let s = rand();
    let t = rand();
    if (s + t > 1) [s, t] = [1 - s, 1 - t];
    return [a[0] + s * (b[0] - a[0]) + t * (c[0] - a[0]), a[1] + s * (b[1] - a[1]) + t * (c[1] - a[1])];
  };
}

/** The crowd on a one-floor mesh, or why there is none. */
function makeCrowd(mesh, radius, rand) {
  let crowd;
  try {
    crowd = new Crowd(mesh, radius, "smooth", { avoid: true, planBudget: 8 });
  } catch (e) {
    return { note: `no crowd (${e.message})` };
  }
  const sample = pointSampler(mesh, rand);
  const speed = radius * 6;
  const placed = [];
  for (let tries = 0; placed.length < AGENTS && tries < 40 * AGENTS; tries++) {
    const [x, y] = sample();
    if (placed.some(([px, py]) => Math.hypot(px - x, py - y) < 2.5 * radius)) continue;
    const [tx, ty] = sample();
    try {
      crowd.addAgent(x, y, tx, ty, speed);
      placed.push([x, y]);
    } catch {
      // An end too close to a wall for the radius, or a target on another island.
    }
  }
  if (placed.length === 0) {
    crowd.free();
    return { note: "no crowd: no agent found room on this navmesh" };
  }
  return { crowd, sample, note: `${placed.length} agents (radius ${radius.toPrecision(2)})` };
}

/** Shows the navmesh file `bytes` named `name`. */
function show(bytes, name) {
  const up = /\.mesh$/i.test(name) ? "z" : undefined; // Polyanya's meshes are 2D: (x, y)
  const mesh = SurfaceMesh.load(bytes, name, up);
  const pipeline = new Pipeline(mesh, 0, "smooth");
  const group = new THREE.Group();
  if (mesh.up === "z") group.rotation.x = -Math.PI / 2; // the file's z becomes three.js's y
  const { floor, outline } = meshGeometry(mesh);
  const floorMesh = new THREE.Mesh(
    floor,
    new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 }),
  );
  group.add(floorMesh);
  group.add(new THREE.LineSegments(outline, new THREE.LineBasicMaterial({ color: 0x182030, transparent: true, opacity: 0.5 })));
  scene.add(group);
  group.updateMatrixWorld(true);

  // Sizes from the mesh: the agents' radius, the path's lift above the floor.
  const box = new THREE.Box3().setFromObject(floorMesh);
  const size = box.getSize(new THREE.Vector3());
  const diagonal = size.length();
  const planDiagonal = Math.hypot(size.x, size.z);
  const radius = Math.max(0.05, Math.min(0.5, planDiagonal / 120));
  const lift = Math.max(0.02, diagonal / 400);

  // The camera over the level.
  const centre = box.getCenter(new THREE.Vector3());
  camera.near = diagonal / 1000;
  camera.far = diagonal * 10;
  camera.position.copy(centre).add(new THREE.Vector3(0, 0.75 * diagonal, 0.55 * diagonal));
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();

  const rand = random(SEED);
  const made = makeCrowd(mesh, radius, rand);
  let agents = null;
  if (made.crowd) {
    const h = 4 * radius;
    const body = new THREE.CylinderGeometry(radius, radius, h, 20).translate(0, h / 2, 0);
    if (mesh.up === "z") body.rotateX(Math.PI / 2);
    agents = new THREE.InstancedMesh(body, new THREE.MeshLambertMaterial({ color: 0xff6a4d }), made.crowd.length);
    agents.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    agents.frustumCulled = false;
    group.add(agents);
  }
  return {
    name,
    mesh,
    vertices: mesh.vertices(),
    pipeline,
    group,
    floorMesh,
    agents,
    lift,
    radius,
    rand,
    crowd: made.crowd ?? null,
    sample: made.sample ?? null,
    crowdNote: made.note,
    retarget: made.crowd ? new Float64Array(made.crowd.length).fill(0) : null,
    pathLine: null,
    markers: [],
  };
}

function describe() {
  const what = `${L.name}: ${L.mesh.numPolygons} polygons, ${L.mesh.up} up; ${L.crowdNote}.`;
  const next = picks.length === 1 ? "Click the goal." : "Click a start point on the navmesh.";
  const path = lastPath ? ` Path: ${lastPath.points.length / 3} points, planned in ${planMs.toFixed(1)} ms.` : "";
  const error = lastError ? ` ${lastError}` : "";
  return `${what}${path}${error} ${next}`;
}

/** Loads a level from its bytes; resolves once it is shown. */
async function loadBytes(bytes, name) {
  setStatus(`loading ${name}…`);
  let level;
  try {
    level = show(bytes, name);
  } catch (e) {
    lastError = `Could not load ${name}: ${e.message}`;
    setStatus(L ? `${lastError} (still showing ${L.name})` : lastError);
    throw e;
  }
  dispose(L);
  L = level;
  picks = [];
  lastPath = null;
  lastError = null;
  frames = 0;
  mode = "wander";
  gatherButton.disabled = true;
  wanderButton.disabled = true;
  setStatus(describe());
}

async function loadCorpus(file) {
  if ([...levelSelect.options].some((o) => o.value === file)) levelSelect.value = file;
  const response = await fetch(new URL(file, CORPUS));
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  await loadBytes(new Uint8Array(await response.arrayBuffer()), file.split("/").pop());
}

// --- picking and planning -----------------------------------------------------------------

function marker(p, colour) {
  const r = Math.max(1.4 * L.radius, L.lift * 2);
  const m = new THREE.Mesh(new THREE.SphereGeometry(r, 16, 12), new THREE.MeshBasicMaterial({ color: colour }));
  m.position.set(...p).addScaledVector(upVector(L.mesh.up), L.lift);
  L.group.add(m);
  L.markers.push(m);
}

function clearDrawing() {
  for (const m of L.markers) {
    L.group.remove(m);
    m.geometry.dispose();
    m.material.dispose();
  }
  L.markers = [];
  if (L.pathLine) {
    L.group.remove(L.pathLine);
    L.pathLine.geometry.dispose();
    L.pathLine.material.dispose();
    L.pathLine = null;
  }
}

/** A point picked on the navmesh (the mesh's coordinates): the start, then the goal. */
function pick(p) {
  if (picks.length !== 1) {
    picks = [p];
    lastPath = null;
    lastError = null;
    clearDrawing();
    marker(p, 0x40e070);
    gatherButton.disabled = true;
  } else {
    picks.push(p);
    marker(p, 0xff4060);
    plan();
  }
  setStatus(describe());
}

function plan() {
  const [s, g] = picks;
  const t0 = performance.now();
  try {
    const found = L.pipeline.plan3(s[0], s[1], s[2], g[0], g[1], g[2]);
    lastPath = { points: Array.from(found.points), polygons: Array.from(found.polygons), flags: Array.from(found.flags) };
    found.free();
    lastError = null;
  } catch (e) {
    lastPath = null;
    lastError = `No path: ${e.message}`;
    return;
  }
  const ms = performance.now() - t0;
  const up = upVector(L.mesh.up).multiplyScalar(L.lift);
  const pts = lastPath.points.map((x, i) => x + up.getComponent(i % 3));
  // A line 4 pixels wide, drawn over everything: a path may pass under an upper floor.
  const line = new Line2(
    new LineGeometry().setPositions(pts),
    new LineMaterial({ color: 0xffffff, linewidth: 4, depthTest: false }),
  );
  line.renderOrder = 1;
  L.group.add(line);
  L.pathLine = line;
  gatherButton.disabled = !L.crowd;
  planMs = ms;
}

/** Where a ray through the screen point (clientX, clientY) meets the navmesh, in the
 *  mesh's coordinates, or null. */
function raycast(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, camera);
  const hit = ray.intersectObject(L.floorMesh, false)[0];
  if (!hit) return null;
  // The hit's plan-view point, at the height of the triangle hit computed from the mesh's
  // own (double precision) vertices: the drawn ones are single precision.
  const [x, y, z] = L.group.worldToLocal(hit.point.clone()).toArray();
  const [px, py] = planOf(L.mesh.up, x, y, z);
  const index = L.floorMesh.geometry.getIndex().array;
  const corners = [0, 1, 2].map((k) => {
    const i = index[3 * hit.faceIndex + k];
    const v = L.vertices;
    return [...planOf(L.mesh.up, v[3 * i], v[3 * i + 1], v[3 * i + 2]), L.mesh.up === "y" ? v[3 * i + 1] : v[3 * i + 2]];
  });
  const [a, b, c] = corners;
  const d = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  if (d === 0) return [x, y, z];
  const s = ((px - a[0]) * (c[1] - a[1]) - (py - a[1]) * (c[0] - a[0])) / d;
  const t = ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) / d;
  const h = (1 - s - t) * a[2] + s * b[2] + t * c[2];
  return L.mesh.up === "y" ? [px, h, py] : [px, py, h];
}

let down = null;
canvas.addEventListener("pointerdown", (e) => {
  down = [e.clientX, e.clientY];
});
canvas.addEventListener("pointerup", (e) => {
  // A click, not the end of a drag of the camera.
  if (!L || !down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
  const p = raycast(e.clientX, e.clientY);
  if (p) pick(p);
});

levelSelect.addEventListener("change", () => {
  loadCorpus(levelSelect.value).catch(() => {});
});
fileInput.addEventListener("change", async () => {
  const file = fileInput.files[0];
  if (!file) return;
  levelSelect.value = "";
  loadBytes(new Uint8Array(await file.arrayBuffer()), file.name).catch(() => {});
});
gatherButton.addEventListener("click", () => {
  if (!L?.crowd || picks.length !== 2) return;
  const [gx, gy] = planOf(L.mesh.up, ...picks[1]);
  for (let i = 0; i < L.crowd.length; i++) L.crowd.setTarget(i, gx, gy);
  mode = "gather";
  wanderButton.disabled = false;
});
wanderButton.addEventListener("click", () => {
  mode = "wander";
  wanderButton.disabled = true;
  if (L?.crowd) for (let i = 0; i < L.crowd.length; i++) L.crowd.setTarget(i, ...L.sample());
});

// --- the crowd, each frame -----------------------------------------------------------------

const matrix = new THREE.Matrix4();
const timer = new THREE.Timer();
const timings = { crowdMs: 0, renderMs: 0 }; // the last frame's
let time = 0;

function stepCrowd(dt) {
  const { crowd } = L;
  crowd.update(dt);
  frames++;
  time += dt;
  if (mode === "wander") {
    for (let i = 0; i < crowd.length; i++) {
      // Arrived: a new target. Stuck (or a target refused): another, at most every 2 s.
      if (crowd.arrived(i) || (crowd.stuck(i) !== undefined && time > L.retarget[i])) {
        crowd.setTarget(i, ...L.sample());
        L.retarget[i] = time + 2;
      }
    }
  }
  const p = crowd.positions3(); // in the file's axes, as the group draws
  for (let i = 0; i < crowd.length; i++) L.agents.setMatrixAt(i, matrix.makeTranslation(p[3 * i], p[3 * i + 1], p[3 * i + 2]));
  L.agents.instanceMatrix.needsUpdate = true;
}

let rendered = 0;
function tick(now) {
  timer.update(now);
  const dt = Math.min(timer.getDelta(), 1 / 20);
  if (L?.crowd) {
    const t0 = performance.now();
    try {
      stepCrowd(dt);
    } catch (e) {
      lastError = `Crowd: ${e.message}`;
      setStatus(describe());
    }
    timings.crowdMs = performance.now() - t0;
  }
  controls.update();
  if (renderer) {
    const t0 = performance.now();
    renderer.render(scene, camera);
    timings.renderMs = performance.now() - t0;
    rendered++;
  }
}

// --- start, and the hook a test drives ---------------------------------------------------

const ready = (async () => {
  await init();
  await loadCorpus(levelSelect.value);
  if (renderer) renderer.setAnimationLoop(tick);
  else {
    setStatus(`${describe()} (WebGL is not available: ${webgl.error}; nothing is drawn)`);
    const loop = () => {
      tick();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }
})();
ready.catch((e) => setStatus(`Could not start: ${e.message}`));

window.example = {
  /** Resolves once the library is loaded and the first level shown. */
  ready,
  webgl,
  camera,
  /** Loads a file of the corpus (its path under crates/pathsmooth/tests/data/corpus/). */
  load: (file) => loadCorpus(file),
  /** Picks the point (x, y, z) of the mesh as a click there would. */
  click: (x, y, z) => pick([x, y, z]),
  /** The screen point (client pixels) where the mesh's point (x, y, z) is drawn. */
  project(x, y, z) {
    camera.updateMatrixWorld();
    const p = L.group.localToWorld(new THREE.Vector3(x, y, z)).project(camera);
    const rect = canvas.getBoundingClientRect();
    return [rect.left + ((p.x + 1) / 2) * rect.width, rect.top + ((1 - p.y) / 2) * rect.height];
  },
  /** Freezes the camera (no damping drift), so that projected points stay put. */
  stillCamera() {
    controls.enableDamping = false;
    controls.update();
  },
  get level() {
    return L && { name: L.name, up: L.mesh.up, polygons: L.mesh.numPolygons, crowd: !!L.crowd, note: L.crowdNote, radius: L.radius };
  },
  get picks() {
    return picks.map((p) => [...p]);
  },
  get lastPath() {
    return lastPath;
  },
  get lastError() {
    return lastError;
  },
  get frames() {
    return frames;
  },
  get rendered() {
    return rendered;
  },
  /** How long the last frame's crowd update and drawing took (ms). */
  get timings() {
    return { ...timings };
  },
  status: () => statusLine.textContent,
  gather: () => gatherButton.click(),
  /** The agents' plan-view positions, [x0, y0, x1, y1, …], and their radii. */
  agentPositions: () => (L?.crowd ? Array.from(L.crowd.positions()) : []),
  agentRadii: () => (L?.crowd ? Array.from(L.crowd.radii()) : []),
  /** Where the agents are drawn, [x0, y0, z0, …] in the mesh's coordinates (each one's
   *  instance matrix, the foot of its cylinder). */
  drawnAgents() {
    const at = new THREE.Matrix4();
    const out = [];
    for (let i = 0; i < (L?.agents?.count ?? 0); i++) {
      L.agents.getMatrixAt(i, at);
      out.push(at.elements[12], at.elements[13], at.elements[14]);
    }
    return out;
  },
};
