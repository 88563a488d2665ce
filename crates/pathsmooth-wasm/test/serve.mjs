// A static file server over the repository for the browser tests: what any static host
// would do (the pages under web/ and examples/ fetch the package, three.js and the corpus's
// navmesh files by URL from the repository root).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const crate = join(dirname(fileURLToPath(import.meta.url)), "..");
export const repo = join(crate, "..", "..");

/** The native CLI the tests compare with (`PATHSMOOTH_BIN`, default target/debug/pathsmooth),
 *  or null where it is not built: the comparison is then skipped, but under CI a missing
 *  binary fails the test. */
export function nativeBin() {
  const bin = process.env.PATHSMOOTH_BIN ?? join(repo, "target/debug/pathsmooth");
  if (existsSync(bin)) return bin;
  assert.ok(!process.env.CI, `the native binary ${bin} is missing (build pathsmooth-cli)`);
  return null;
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css" };

/** Serves the repository on 127.0.0.1 at a free port; resolves to the listening server. */
export function serve() {
  const server = createServer((req, res) => {
    const path = normalize(join(repo, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(repo + sep) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** The repository served and headless Chromium (`CHROMIUM`, default /usr/bin/chromium)
 *  launched with `args`, both closed after test `t`. */
export async function serveAndLaunch(t, args) {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args,
  });
  t.after(async () => {
    await browser.close();
    server.close();
  });
  return { server, browser };
}
