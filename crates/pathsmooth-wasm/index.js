// The package's entry: wasm-bindgen's classes, and an `init` that finds the .wasm file
// wherever the module runs (a bundler or a browser fetch it beside this file; Node reads
// it from disk, as its fetch cannot read file: URLs).
import wbgInit, { initSync as wbgInitSync } from "./pkg/pathsmooth_wasm.js";

export * from "./pkg/pathsmooth_wasm.js";

/**
 * Loads and instantiates the WebAssembly module; call (and await) it once before using
 * any class. `input`: the module's bytes, a `WebAssembly.Module`, a URL or a `Response`
 * (left out: the .wasm file beside this module).
 */
export default async function init(input) {
  if (input === undefined && typeof process !== "undefined" && process.versions?.node) {
    const { readFile } = await import("node:fs/promises");
    input = await readFile(new URL("./pkg/pathsmooth_wasm_bg.wasm", import.meta.url));
  }
  return wbgInit(input === undefined ? undefined : { module_or_path: input });
}

/** Instantiates the module synchronously from its bytes or a `WebAssembly.Module`. */
export function initSync(module) {
  return wbgInitSync({ module });
}
