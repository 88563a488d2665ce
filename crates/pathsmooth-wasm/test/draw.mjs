// Random draws shared by the package's test and its bench: the same ends on every run.

/** A small seeded generator (mulberry32): numbers in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A point inside a random polygon of `rings` (each a list of [x, y, z] corners): a random
 * convex combination of its corners, each polygon as likely as any other whatever its size.
 */
export function inside(rings, rand) {
  const ring = rings[Math.floor(rand() * rings.length)];
  const w = ring.map(() => rand() + 0.05);
  const sum = w.reduce((a, b) => a + b, 0);
  return [0, 1, 2].map((axis) => ring.reduce((acc, c, k) => acc + (c[axis] * w[k]) / sum, 0));
}
