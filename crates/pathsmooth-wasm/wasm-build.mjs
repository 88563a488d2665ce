// The steps of a WebAssembly build, shared by the npm package's `npm run build` (build.mjs)
// and the static playground's (crates/pathsmooth-playground-wasm/build.mjs): the Rust target
// and the pinned wasm-bindgen command installed when missing, cargo in profile wasm-release,
// wasm-bindgen's `--target web` glue, binaryen's wasm-opt (a devDependency of this package:
// `npm ci` here first).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const TARGET = "wasm32-unknown-unknown";
export const PROFILE = "wasm-release";

export function run(cmd, args, options = {}) {
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

/** The wasm32 target and the wasm-bindgen command at the version `cargoToml` pins. */
export function ensureTools(cargoToml) {
  // The glue must come from the wasm-bindgen version the crate links: read the pin.
  const pin = readFileSync(cargoToml, "utf8").match(/^wasm-bindgen = "=([0-9.]+)"/m);
  if (!pin) throw new Error(`${cargoToml}: no exact wasm-bindgen pin (wasm-bindgen = "=X.Y.Z")`);
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
}

/** Builds `pkg` (a cdylib crate) for the web; returns its `.wasm` before wasm-bindgen. */
export function cargoBuild(pkg) {
  run("cargo", ["build", "-p", pkg, "--target", TARGET, "--profile", PROFILE, "--locked"]);
  const targetDir = JSON.parse(output("cargo", ["metadata", "--format-version", "1", "--no-deps"])).target_directory;
  return join(targetDir, TARGET, PROFILE, `${pkg.replaceAll("-", "_")}.wasm`);
}

/** wasm-bindgen's ES-module glue for `wasm` into `outDir` as `name`.js and `name`_bg.wasm. */
export function bindgen(wasm, outDir, name) {
  run("wasm-bindgen", ["--target", "web", "--out-dir", outDir, "--out-name", name, wasm]);
}

/** binaryen's wasm-opt on `file` in place with `level` (`-Oz`, `-O2`…) and `extra` flags;
 *  the features are the ones Rust's wasm32 target enables by default. */
export function wasmOpt(file, level, extra = []) {
  const features = ["bulk-memory", "nontrapping-float-to-int", "sign-ext", "mutable-globals", "reference-types", "multivalue"];
  run(join(here, "node_modules", ".bin", "wasm-opt"), [level, ...extra, ...features.map((f) => `--enable-${f}`), file, "-o", file]);
}
