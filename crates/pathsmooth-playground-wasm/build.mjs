// The static playground: `node crates/pathsmooth-playground-wasm/build.mjs [out-dir]` writes
// a self-contained folder (default: <cargo target dir>/playground-static/) that any static
// host can serve: the playground's page (crates/pathsmooth-cli/assets/playground/, the one
// `pathsmooth serve` serves, marked static so that its requests go to the worker), worker.js,
// and this crate compiled for the web (wasm-bindgen glue and .wasm under pkg/). The build
// steps are the npm package's (crates/pathsmooth-wasm/wasm-build.mjs), without its
// wasm-opt pass (below); the wasm32 target and wasm-bindgen are installed when missing.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bindgen, cargoBuild, ensureTools } from "../pathsmooth-wasm/wasm-build.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const page = join(here, "..", "pathsmooth-cli", "assets", "playground");
const targetDir = JSON.parse(
  execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps"], { cwd: here, encoding: "utf8" }),
).target_directory;
const out = resolve(process.argv[2] ?? join(targetDir, "playground-static"));

ensureTools(join(here, "Cargo.toml"));
const wasm = cargoBuild("pathsmooth-playground-wasm");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
bindgen(wasm, join(out, "pkg"), "pathsmooth_playground_wasm");
// No wasm-opt: measured on this module, -O2 took 26 s (binaryen's npm build), made it 20 %
// smaller (1.41 MB against 1.76; gzipped 559 KB against 619) and no faster (a plan with every
// method 68-80 ms without, 93-123 with; a 60-agent crowd 356-363 ms against 442-489, in
// Node on the shared machine). The playground has no size budget; CI's time matters more.
const module = join(out, "pkg", "pathsmooth_playground_wasm_bg.wasm");

// The same page; the marker tells app.js to answer its requests in the worker.
const MARKER = '<meta name="playground" content="static">';
const html = readFileSync(join(page, "index.html"), "utf8");
if (!html.includes("</head>")) throw new Error(`${page}/index.html: no </head> to put the static marker before`);
writeFileSync(join(out, "index.html"), html.replace("</head>", `${MARKER}\n</head>`));
for (const file of ["app.js", "layered.js", "crowd.js", "style.css"]) copyFileSync(join(page, file), join(out, file));
copyFileSync(join(here, "web", "worker.js"), join(out, "worker.js"));

const bytes = readFileSync(module);
console.error(
  `${out}: the page, worker.js and pkg/ (${bytes.length} bytes of WebAssembly, ` +
    `${gzipSync(bytes, { level: 9 }).length} gzipped; ${statSync(wasm).size} before wasm-bindgen)`,
);
