// `npm run build`: the library compiled for wasm32-unknown-unknown (cargo, profile
// wasm-release), then wasm-bindgen's ES-module glue and TypeScript types written into pkg/.
// Installs what it needs when missing: the Rust target (rustup) and the wasm-bindgen
// command at the version the crate pins (cargo install). The steps are wasm-build.mjs's.
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bindgen, cargoBuild, ensureTools, wasmOpt } from "./wasm-build.mjs";

const here = dirname(fileURLToPath(import.meta.url));
ensureTools(join(here, "Cargo.toml"));
const wasm = cargoBuild("pathsmooth-wasm");
bindgen(wasm, join(here, "pkg"), "pathsmooth_wasm");

// binaryen's wasm-opt (a devDependency: `npm ci` first) shrinks and speeds up the module.
// -Oz to convergence: 14 KB less than -Os, which keeps the module under its 1.5 MB budget
// (docs/wasm.md).
const out = join(here, "pkg", "pathsmooth_wasm_bg.wasm");
wasmOpt(out, "-Oz", ["--converge"]);

const bytes = readFileSync(out);
console.error(
  `pkg/pathsmooth_wasm_bg.wasm: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped ` +
    `(${statSync(wasm).size} before wasm-bindgen)`,
);
