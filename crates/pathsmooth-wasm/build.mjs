// `npm run build`: the library compiled for wasm32-unknown-unknown (cargo, profile
// wasm-release), then wasm-bindgen's ES-module glue and TypeScript types written into pkg/.
// Installs what it needs when missing: the Rust target (rustup) and the wasm-bindgen
// command at the version the crate pins (cargo install).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const TARGET = "wasm32-unknown-unknown";
const PROFILE = "wasm-release";

function run(cmd, args, options = {}) {
  console.error(`> ${cmd} ${args.join(" ")}`);
  execFileSync(cmd, args, { stdio: "inherit", cwd: here, ...options });
}

function output(cmd, args) {
  try {
    return execFileSync(cmd, args, { cwd: here, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

// The glue must come from the wasm-bindgen version the crate links: read the pin.
const pin = readFileSync(join(here, "Cargo.toml"), "utf8").match(/^wasm-bindgen = "=([0-9.]+)"/m);
if (!pin) throw new Error("Cargo.toml: no exact wasm-bindgen pin (wasm-bindgen = \"=X.Y.Z\")");
const version = pin[1];

const installed = output("rustup", ["target", "list", "--installed"]);
if (installed !== null && !installed.split("\n").includes(TARGET)) {
  run("rustup", ["target", "add", TARGET]);
}
if (!(output("wasm-bindgen", ["--version"]) ?? "").includes(version)) {
  // Not --locked: the CLI's own lock file names a webpki-roots release the registry no
  // longer serves (seen with 0.2.130).
  run("cargo", ["install", "wasm-bindgen-cli", "--version", `=${version}`]);
}

run("cargo", ["build", "-p", "pathsmooth-wasm", "--target", TARGET, "--profile", PROFILE, "--locked"]);
const targetDir = JSON.parse(output("cargo", ["metadata", "--format-version", "1", "--no-deps"])).target_directory;
const wasm = join(targetDir, TARGET, PROFILE, "pathsmooth_wasm.wasm");
run("wasm-bindgen", ["--target", "web", "--out-dir", "pkg", "--out-name", "pathsmooth_wasm", wasm]);

// binaryen's wasm-opt (a devDependency: `npm ci` first) shrinks and speeds up the module;
// the features are the ones Rust's wasm32 target enables by default.
const wasmOpt = join(here, "node_modules", ".bin", "wasm-opt");
const out = join(here, "pkg", "pathsmooth_wasm_bg.wasm");
const features = ["bulk-memory", "nontrapping-float-to-int", "sign-ext", "mutable-globals", "reference-types", "multivalue"];
// -Oz to convergence: 14 KB less than -Os, which keeps the module under its 1.5 MB budget
// (docs/wasm.md).
run(wasmOpt, ["-Oz", "--converge", ...features.map((f) => `--enable-${f}`), out, "-o", out]);

const bytes = readFileSync(join(here, "pkg", "pathsmooth_wasm_bg.wasm"));
console.error(
  `pkg/pathsmooth_wasm_bg.wasm: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped ` +
    `(${statSync(wasm).size} before wasm-bindgen)`,
);
