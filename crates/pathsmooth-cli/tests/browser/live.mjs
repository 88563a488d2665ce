// The live crowd in the page, served (`pathsmooth serve`) or static (the worker): started
// with Live, stepped by the page while it plays, the agents sent where the map is clicked
// (a click in a wall refused, the crowd going on), stopped with the button. Judged from the
// answers the page received, by an oracle of its own: every frame in order (none lost
// between steps), every agent on a free cell of the map, no two closer than 99 % of their
// radii's sum, and the agents walking towards the click.
import assert from "node:assert/strict";

/** Clicks the map at cell coordinates (x, y) (scrolled into view by the click). */
async function clickAt(page, [x, y]) {
  const position = await page.evaluate(([x, y]) => {
    const svg = document.getElementById("map");
    const p = svg.createSVGPoint();
    p.x = x; p.y = y;
    const q = p.matrixTransform(svg.getScreenCTM());
    const box = svg.getBoundingClientRect();
    return { x: q.x - box.left, y: q.y - box.top };
  }, [x, y]);
  await page.locator("#map").click({ position });
}

/** Runs the live crowd of 30 agents (the truck on, no doors) on the demo world shown in
 *  `page`, whose cells are `grid` (`GET /api/worlds/demo`); returns its frames. */
export async function liveCrowdIsSentByAClick(page, grid) {
  await page.click("#mode-crowd");
  await page.$eval("#crowd-agents", (e) => { e.value = "30"; e.dispatchEvent(new Event("input", { bubbles: true })); });
  await page.evaluate(() => {
    document.getElementById("crowd-doors").checked = false;
    window.liveAnswers = [];
    const plain = api;
    window.api = async (path, body, signal) => {
      const answer = await plain(path, body, signal);
      if (path.startsWith("/api/crowd/live")) liveAnswers.push(answer);
      return answer;
    };
  });
  await page.click("#crowd-live");
  await page.waitForFunction(() => Number(document.getElementById("crowd").dataset.frame) >= 20, null, { timeout: 30_000 });
  // The page plays the frames in order at their pace: the frame shown, read every 50 ms
  // for 2 s, never goes back and moves on by about one a 50 ms (20 a second), never by a
  // jump over frames (a wait for an answer holds the frame shown).
  const shown = await page.evaluate(async () => {
    const seen = [];
    for (let k = 0; k < 40; k++) {
      seen.push(Number(document.getElementById("crowd").dataset.frame));
      await new Promise((done) => setTimeout(done, 50));
    }
    return seen;
  });
  const steps = shown.slice(1).map((f, k) => f - shown[k]);
  assert.ok(steps.every((d) => d >= 0 && d <= 4), `frames shown every 50 ms: ${shown}`);
  assert.ok(shown.at(-1) - shown[0] >= 20, `frames shown in 2 s: ${shown}`);
  await clickAt(page, [0.5, 0.5]); // the outer wall
  await page.waitForFunction(() => document.getElementById("status").textContent.includes("inside a wall"));
  const click = [5.5, 71.5]; // the park's corner
  await clickAt(page, click);
  await page.waitForFunction(() => document.getElementById("crowd").dataset.sent === "30");
  const sentAt = await page.evaluate(() => liveAnswers.length - 1);
  await page.waitForFunction((n) => liveAnswers.length >= n + 16, sentAt, { timeout: 60_000 });
  await page.click("#crowd-live"); // stops it
  assert.equal(await page.getAttribute("#crowd", "data-live"), null);
  const answers = await page.evaluate(() => liveAnswers);
  const frames = answers.flatMap((a) => a.frames);
  const sum = 2 * answers[0].radius;
  frames.forEach(({ t, at }, f) => {
    assert.ok(Math.abs(t - f / 20) < 1e-9, `live frame ${f} at t = ${t}`);
    for (let i = 0; i < at.length / 2; i++) {
      const [x, y] = [at[2 * i], at[2 * i + 1]];
      assert.equal(grid.rows[Math.floor(y)][Math.floor(x)], ".", `live frame ${f}: agent ${i} at (${x}, ${y}) on a free cell`);
      for (let j = i + 1; j < at.length / 2; j++) {
        const gap = Math.hypot(x - at[2 * j], y - at[2 * j + 1]);
        assert.ok(gap >= 0.99 * sum - 1e-3, `live frame ${f}: agents ${i} and ${j} ${gap} apart`);
      }
    }
  });
  const meanDistance = ({ at }) => {
    let d = 0;
    for (let i = 0; i < at.length / 2; i++) d += Math.hypot(at[2 * i] - click[0], at[2 * i + 1] - click[1]);
    return d / (at.length / 2);
  };
  const sentFrame = answers.slice(0, sentAt).reduce((n, a) => n + a.frames.length, 0);
  const [from, to] = [meanDistance(frames[sentFrame]), meanDistance(frames.at(-1))];
  const walked = (frames.length - 1 - sentFrame) / 20;
  console.error(`live crowd: ${frames.length} frames, sent at frame ${sentFrame}; mean distance to the click ${from.toFixed(1)} → ${to.toFixed(1)} cells in ${walked} s`);
  // The agents walk round walls at 1.5 cells a second; wandering would not bring them nearer.
  assert.ok(from - to >= 0.3 * walked, `the agents walk towards the click: ${from} → ${to} in ${walked} s`);
  assert.match(answers.at(-1).line, /^overlaps 0 wall_hits 0 arrived \d+\/30$/);
  return frames;
}
