// The static playground's engine: a module Web Worker running the playground's API in
// WebAssembly (crates/pathsmooth-playground-wasm). The page (app.js's `engine`) posts
// {id, method, path, body} and gets {id, body} (the answer's JSON text) or
// {id, error, status} back, one request at a time, in order. Bad input is an error
// answered like any other, and the worker takes the next request. A trap (a bug: Rust
// panics abort) may leave the module's memory inconsistent, so it is answered with
// `fatal: true` and the page starts a new worker.
import init, { request } from "./pkg/pathsmooth_playground_wasm.js";

const ready = init();

self.onmessage = async ({ data: { id, method, path, body } }) => {
  try {
    await ready;
    self.postMessage({ id, body: request(method, path, body) });
  } catch (e) {
    const fatal = e instanceof WebAssembly.RuntimeError;
    const error = fatal ? `internal error (please report it): ${e.message}` : String(e?.message ?? e);
    self.postMessage({ id, error, status: e?.status ?? 500, fatal });
  }
};
