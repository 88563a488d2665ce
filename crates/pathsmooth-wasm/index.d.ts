export * from "./pkg/pathsmooth_wasm.js";

/**
 * Loads and instantiates the WebAssembly module; call (and await) it once before using
 * any class. `input`: the module's bytes, a `WebAssembly.Module`, a URL or a `Response`
 * (left out: the .wasm file beside this module).
 */
export default function init(
  input?: BufferSource | WebAssembly.Module | URL | string | Response | Promise<Response>,
): Promise<unknown>;

/** Instantiates the module synchronously from its bytes or a `WebAssembly.Module`. */
export function initSync(module: BufferSource | WebAssembly.Module): unknown;
