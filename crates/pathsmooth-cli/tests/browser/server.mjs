// `pathsmooth serve` for the browser tests: the binary (PATHSMOOTH_BIN, else
// target/release/pathsmooth, else target/debug/pathsmooth) on a free loopback port. The
// playground test drives its page; the static playground's test asks it the same requests
// as the worker, as the native reference.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../../../", import.meta.url));
export const bin = process.env.PATHSMOOTH_BIN
  ?? [`${root}target/release/pathsmooth`, `${root}target/debug/pathsmooth`].find(existsSync);

/** Starts the server on a free loopback port; resolves to {child, url} (`url` ends in `/`). */
export function startServer() {
  assert.ok(bin && existsSync(bin), `no pathsmooth binary (build it or set PATHSMOOTH_BIN): ${bin}`);
  const child = spawn(bin, ["serve", "--bind", "127.0.0.1", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server did not print its address within 10 s")), 10_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve({ child, url: m[0] }); }
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
}
