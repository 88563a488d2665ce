// A TypeScript user's first page of pathsmooth: a grid, a navmesh file, a crowd.
// Type-checked by `npm run typecheck` (tsc --noEmit), so that the types the package ships
// describe what it does.
import init, { Crowd, GridWorld, Pipeline, SurfaceMesh, SurfacePath, SurfaceQuery } from "pathsmooth";

export async function demo(navmeshBytes: Uint8Array): Promise<void> {
  await init();

  // A 20 × 10 grid with a wall across the middle, cells 0.5 m across.
  const free = new Uint8Array(20 * 10).fill(1);
  for (let y = 2; y < 8; y++) free[y * 20 + 10] = 0;
  const grid = new GridWorld(free, 20, 10, 0.5, 0, 0);
  const pipeline = new Pipeline(grid, 0.2, "smooth");
  const path: Float64Array = pipeline.plan(0.75, 2.75, 9.25, 2.75);
  const valid: boolean = pipeline.report().validation.valid;
  console.log(`${path.length / 2} points, valid: ${valid}`);

  // Any engine's navmesh file (Detour .bin, Recast JSON, Godot .tscn, Unity OBJ, …).
  const mesh = SurfaceMesh.load(navmeshBytes, "level.bin");
  const layered = new Pipeline(mesh, 0, ["shortcut", ["fillet", 1.5]]);
  const route: SurfacePath = layered.plan3(1, 0, 1, 8, 0, 8);
  const xyz: Float64Array = route.points;
  const polygons: Uint32Array = route.polygons;
  console.log(`${xyz.length / 3} points over ${new Set(polygons).size} polygons`);

  // The query alone, many times: tryFindPath answers undefined where findPath throws.
  const query = new SurfaceQuery(mesh);
  const found: SurfacePath | undefined = query.tryFindPath(1, 0, 1, 8, 0, 8, 0.3);
  const why: string | undefined = query.lastError;
  console.log(found ? `${found.points.length / 3} corners` : `no path: ${why}`);

  // A crowd that avoids itself and a truck.
  const crowd = new Crowd(grid, 0.2, "smooth", { avoid: true, planBudget: 8 });
  const a: number = crowd.addAgent(0.75, 1.25, 9.25, 1.25, 1.2);
  crowd.addAgent(9.25, 1.25, 0.75, 1.25, 1.2, 0.3);
  const truck: number = crowd.addMovingObstacle(5, 4.5, 0.6, 0, -0.5);
  for (let frame = 0; frame < 100; frame++) crowd.update(1 / 30);
  crowd.setMovingObstacleVelocity(truck, 0, 0);
  const positions: Float64Array = crowd.positions();
  console.log(`agent ${a} at ${positions[0]}, ${positions[1]}; arrived: ${crowd.arrived(a)}`);
}
