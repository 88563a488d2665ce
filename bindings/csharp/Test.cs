// The C# test of the binding (run by crates/pathsmooth-ffi/tests/programs.rs under Mono):
//
//   mono test.exe MAP sx sy gx gy [sx sy gx gy ...]
//
// Loads the Moving AI map (parsed here: '.', 'G' and 'S' passable), and for each start/goal
// prints the Shortest preset's plan, that path smoothed by the Smooth preset, and the
// Smooth preset's plan, at radius 0.3, as the hex bits of each double, then the plan on a
// navmesh file (SurfaceFile): the Rust test compares them with the library's own results. Then bad input: each must throw with the
// library's message. Exit status 0 when every check passed.
using System;
using System.Globalization;
using System.IO;
using Pathsmooth;

static class Test
{
    static int checks, failures;

    static void Check(bool ok, string what)
    {
        checks++;
        if (!ok) { failures++; Console.Error.WriteLine("FAIL: " + what); }
    }

    /// <summary>Runs f, which must throw a PathsmoothException of this status whose message
    /// contains `words`.</summary>
    static PathsmoothException Throws(Status status, string words, Action f, string what)
    {
        try { f(); }
        catch (PathsmoothException e)
        {
            Check(e.Status == status && e.Message.Contains(words), what + ": got " + e.Message);
            return e;
        }
        Check(false, what + ": no exception");
        return null;
    }

    static void Print(string label, int i, double[] xy)
    {
        var line = new System.Text.StringBuilder();
        line.Append(label).Append(' ').Append(i).Append(' ').Append(xy.Length / 2);
        foreach (var v in xy) line.Append(' ').Append(BitConverter.DoubleToInt64Bits(v).ToString("x16"));
        Console.WriteLine(line);
    }

    static void Print3(string label, int i, double[] xyz)
    {
        var line = new System.Text.StringBuilder();
        line.Append(label).Append(' ').Append(i).Append(' ').Append(xyz.Length / 3);
        foreach (var v in xyz) line.Append(' ').Append(BitConverter.DoubleToInt64Bits(v).ToString("x16"));
        Console.WriteLine(line);
    }

    /// <summary>Every navmesh of the library's corpus (PS_TEST_CORPUS, its MANIFEST.tsv:
    /// Godot scenes, Unity exports, Recast JSON, polyanya meshes, Detour binaries) loads
    /// with LoadSurface's defaults, the up axis given for the formats that do not name
    /// theirs.</summary>
    static void EveryCorpusFile()
    {
        string corpus = Environment.GetEnvironmentVariable("PS_TEST_CORPUS");
        Check(corpus != null, "PS_TEST_CORPUS is set");
        if (corpus == null) return;
        int loaded = 0;
        var lines = File.ReadAllLines(Path.Combine(corpus, "MANIFEST.tsv"));
        for (int k = 1; k < lines.Length; k++)
        {
            var f = lines[k].Split('\t');
            if (f.Length < 4 || f[1] == "polyanya-scen" || f[1] == "other") continue;
            UpAxis? up = f[2] == "z" ? UpAxis.Z : (UpAxis?)null;
            try
            {
                using (var w = World.LoadSurface(Path.Combine(corpus, f[0]), null, up))
                {
                    Check(w.LoadReport.Length > 0 && w.Climb > 0, f[0] + ": " + w.LoadReport);
                    loaded++;
                }
            }
            catch (PathsmoothException ex)
            {
                Check(false, f[0] + ": " + ex.Message);
            }
        }
        Check(loaded >= 25, loaded + " corpus files loaded");
    }

    /// <summary>A navmesh file as a surface (PS_TEST_SURFACE_FILE, a corpus Godot scene,
    /// and PS_TEST_SURFACE_ENDS, two points on its floors, set by programs.rs): prints the
    /// Smooth preset's plan at radius 0.1 ("surface 0 n bits...") for the comparison,
    /// checks the start keeps its plan-view position exactly, the load report, the climb;
    /// then Unity's triangulation and bad input, each error naming the C# method.</summary>
    static void SurfaceFile()
    {
        string file = Environment.GetEnvironmentVariable("PS_TEST_SURFACE_FILE");
        string ends = Environment.GetEnvironmentVariable("PS_TEST_SURFACE_ENDS");
        Check(file != null && ends != null, "PS_TEST_SURFACE_FILE and PS_TEST_SURFACE_ENDS are set");
        if (file == null || ends == null) return;
        var e = Array.ConvertAll(ends.Split(' '), x => double.Parse(x, CultureInfo.InvariantCulture));
        var s = new Point3d(e[0], e[1], e[2]);
        var g = new Point3d(e[3], e[4], e[5]);
        using (var level = World.LoadSurface(file))
        using (var walker = new Pipeline(level, 0.1, Preset.Smooth))
        {
            Check(level.LoadReport.Contains("welded"), "load report: " + level.LoadReport);
            Check(level.Climb > 0, "climb " + level.Climb);
            uint[] polygons;
            var path = walker.Plan3(s, g, out polygons);
            Print3("surface", 0, path);
            Check(path.Length >= 6 && path[0] == s.X && path[2] == s.Z, "the start kept in plan view");
            Check(level.PolygonRef(polygons[0]) == polygons[0], "a Godot scene's polygon refs are input indices (none dropped)");
            Throws(Status.InvalidArgument, "World.PolygonRef: `polygon` = 4000000", () => level.PolygonRef(4000000), "polygon out of range");
            var r = walker.Report;
            Check(r.StartSnapped == 0 && r.GoalSnapped == 0 && r.PlanLength > 0 && r.Length >= r.PlanLength,
                  "surface report: " + r.Length + " " + r.PlanLength);
            Throws(Status.InvalidArgument, "Pipeline.SetClimb: parameter `climb`", () => walker.SetClimb(double.NaN), "NaN climb");
            walker.SetClimb(level.Climb);
            // The plan's start located and walked a step towards the path's second point:
            // on its polygon, at its floor's height, nearer the point than it was.
            var at = new[] { s };
            var on = new uint[1];
            level.Locate(at, on);
            Check(at[0].X == s.X && at[0].Z == s.Z && on[0] == polygons[0], "located: polygon " + on[0]);
            var toward = new Point3d(path[3], path[4], path[5]);
            double before = Math.Sqrt(Math.Pow(toward.X - at[0].X, 2) + Math.Pow(toward.Z - at[0].Z, 2));
            level.MoveAlong(on, at, new[] { toward });
            double after = Math.Sqrt(Math.Pow(toward.X - at[0].X, 2) + Math.Pow(toward.Z - at[0].Z, 2));
            Check(after < before && Math.Abs(at[0].Y - s.Y) <= level.Climb + 2 * before, "moved: " + before + " -> " + after);
            Throws(Status.InvalidArgument, "World.MoveAlong: row 0: ", () => level.MoveAlong(new uint[] { 4000000 }, at, new[] { toward }), "polygon out of range");
        }
        var missing = Throws(Status.IoError, "World.LoadSurface: no/such/navmesh.tscn: ", () => World.LoadSurface("no/such/navmesh.tscn"), "missing file");
        Check(missing != null && !missing.Message.Contains("ps_world"), "the C function not named");
        Throws(Status.InvalidArgument, "World.LoadSurface: ", () => World.LoadSurface(file, null, UpAxis.Z), "up axis against the file");
        Throws(Status.NullPointer, "World.LoadSurface: `path` is NULL", () => World.LoadSurface(null), "null path");

        // Unity's NavMesh.CalculateTriangulation(): Vector3s as floats, int indices and areas,
        // each triangle with its own copies of the shared corners.
        var xyz = new float[] { 0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 0, 10, 0, 10, 0, 0, 10 };
        var tris = new[] { 0, 1, 2, 3, 4, 5 };
        using (var unity = World.SurfaceFromTriangulation(xyz, tris, new[] { 0, 3 }))
        using (var walker = new Pipeline(unity, 0.5))
        {
            Check(unity.LoadReport.StartsWith("welded 2 vertices"), "welded: " + unity.LoadReport);
            uint[] polygons;
            var p3 = walker.Plan3(new Point3d(9, 0, 1), new Point3d(1, 0, 9), out polygons);
            Check(p3[0] == 9 && p3[2] == 1 && polygons[0] == 0 && polygons[polygons.Length - 1] == 1, "across the welded edge");
            // A crowd on it (one floor): two agents crossing in plan view (x, z), standing on
            // the floor (y = 0) and apart.
            using (var crowd = new Crowd(unity, 0.5, Preset.Smooth, Crowd.Avoiding()))
            {
                crowd.AddAgent(new Point2d(1, 5), new Point2d(9, 5), 1.5);
                crowd.AddAgent(new Point2d(9, 5.2), new Point2d(1, 5.2), 1.5);
                for (int frame = 0; frame < 60; frame++) crowd.Update(0.1);
                var plan = crowd.Positions();
                var at = crowd.Positions3();
                Check(at.Length == 6, "Positions3: 3 numbers an agent");
                for (int i = 0; i < 2; i++)
                    Check(at[3 * i] == plan[2 * i] && at[3 * i + 1] == 0 && at[3 * i + 2] == plan[2 * i + 1], "agent " + i + " on the floor: " + at[3 * i + 1]);
                Check(Math.Abs(at[0] - at[3]) + Math.Abs(at[2] - at[5]) > 0.99, "the two agents apart");
                Check(crowd.Arrived(0) && crowd.Arrived(1), "both crossed");
            }
        }
        // A crowd across the level's floors: an agent placed and sent in 3D walks from the
        // plan's start to its goal and back, on the floors.
        using (var level = World.LoadSurface(file))
        using (var crowd = new Crowd(level, 0.1, Preset.Smooth, Crowd.Avoiding()))
        {
            crowd.AddAgent(s, g, 1.5);
            for (int frame = 0; frame < 600 && !crowd.Arrived(0); frame++) crowd.Update(0.1);
            var at = crowd.Positions3();
            Check(crowd.Arrived(0) && at.Length == 3 && at[0] == g.X && at[2] == g.Z && Math.Abs(at[1] - g.Y) <= level.Climb, "across floors to the goal: " + at[0] + " " + at[1] + " " + at[2]);
            crowd.SetTarget(0, s);
            for (int frame = 0; frame < 600 && !crowd.Arrived(0); frame++) crowd.Update(0.1);
            at = crowd.Positions3();
            Check(crowd.Arrived(0) && at[0] == s.X && at[2] == s.Z, "and back: " + at[0] + " " + at[2]);
            Throws(Status.InvalidArgument, "Crowd.AddAgent: `position` (NaN, 0, 0) is not finite", () => crowd.AddAgent(new Point3d(double.NaN, 0, 0), g, 1.5), "NaN agent");
            // A crate dropped on the agent, on its floor: it is moved out of it.
            int blocked;
            ulong crate = crowd.AddDisk(new Point2d(at[0], at[2]), 0.3, new Point3d(at[0], at[1], at[2]), out blocked);
            var moved = crowd.Positions3();
            Check(Math.Sqrt((moved[0] - at[0]) * (moved[0] - at[0]) + (moved[2] - at[2]) * (moved[2] - at[2])) >= 0.3 + 0.1 - 1e-6, "moved out of the crate: " + moved[0] + " " + moved[2]);
            crowd.RemoveObstacle(crate);
            // Rubble (a triangle) on the same floor: moved out of it too.
            moved = crowd.Positions3();
            double mx = moved[0], mz = moved[2];
            ulong rubble = crowd.AddPolygon(new double[] { mx - 0.3, mz - 0.3, mx + 0.3, mz - 0.3, mx, mz + 0.3 }, new Point3d(mx, moved[1], mz), out blocked);
            var after = crowd.Positions3();
            Check(after[0] != mx || after[2] != mz, "moved out of the rubble: " + after[0] + " " + after[2]);
            crowd.RemoveObstacle(rubble);
            Throws(Status.InvalidArgument, "Crowd.AddPolygon: ", () => crowd.AddPolygon(new double[] { mx, mz, mx + 1, mz }, new Point3d(mx, moved[1], mz), out blocked), "a polygon of two corners");
        }
        using (var room = World.Grid(new byte[] { 1, 1, 1, 1 }, 2, 2, 1))
        using (var crowd = new Crowd(room, 0.1))
        {
            Throws(Status.Unsupported, "Crowd.Positions3: only a crowd made on a surface", () => crowd.Positions3(), "no floor on a grid");
            Throws(Status.Unsupported, "Crowd.AddAgent: only a crowd made on a surface world has floors", () => crowd.AddAgent(new Point3d(0.5, 0, 0.5), new Point3d(1.5, 0, 1.5), 1.5), "3D agent on a grid");
            int none;
            Throws(Status.Unsupported, "Crowd.AddDisk: only a crowd made on a surface has floors", () => crowd.AddDisk(new Point2d(1, 1), 0.5, new Point3d(1, 0, 1), out none), "a floor on a grid");
        }
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: areas[1] = 300", () => World.SurfaceFromTriangulation(xyz, tris, new[] { 0, 300 }), "area out of range");
        Throws(Status.InvalidArgument, "indices[2] = -1 is negative", () => World.SurfaceFromTriangulation(xyz, new[] { 0, 1, -1 }), "negative index");
        Throws(Status.InvalidArgument, "areas holds 1 entries", () => World.SurfaceFromTriangulation(xyz, tris, new[] { 0 }), "too few areas");
        var nan = (float[])xyz.Clone();
        nan[4] = float.NaN;
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: point 1 has a NaN", () => World.SurfaceFromTriangulation(nan, tris), "NaN vertex");
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: parameter `indices` = 5", () => World.SurfaceFromTriangulation(new double[18], new uint[5]), "partial triangle");
    }

    /// <summary>The crowd: six avoiding agents in head-on pairs across an open room and a
    /// disc driving across their way; this test follows the disc and checks the distances
    /// itself every frame (no two agents within 0.99 × 2r, none within 0.99 × (r + R) of
    /// the disc), then that all arrive; removals, obstacles, a navmesh crowd, bad input.</summary>
    static void CrowdChecks()
    {
        const double r = 0.3, bigR = 1.0, dt = 1.0 / 30;
        var open = new byte[24 * 12];
        for (int k = 0; k < open.Length; k++) open[k] = 1;
        double[] starts = { 1.5, 3.5, 22.5, 3.5, 1.5, 6.5, 22.5, 6.5, 1.5, 9.5, 22.5, 9.5 };
        using (var room = World.Grid(open, 24, 12, 1.0))
        using (var crowd = new Crowd(room, r, Preset.Smooth, Crowd.Avoiding()))
        {
            Check(crowd.Radius == r && crowd.Count == 0, "new crowd");
            for (int i = 0; i < 6; i++)
            {
                int g = i ^ 1; // pairs head-on: each walks to its partner's start
                int index = crowd.AddAgent(new Point2d(starts[2 * i], starts[2 * i + 1]), new Point2d(starts[2 * g], starts[2 * g + 1]), 1.5);
                Check(index == i, "agent index " + index);
            }
            double tx = 12.0, ty = -1.5;
            ulong truck = crowd.AddMovingObstacle(new Point2d(tx, ty), bigR, new Point2d(0, 1.2));
            double nearestPair = double.PositiveInfinity, nearestTruck = double.PositiveInfinity;
            var xy = new double[12];
            for (int frame = 0; frame < 900; frame++)
            {
                var f = crowd.Update(dt);
                Check((ulong)f.Failed == 0 && (ulong)f.Stuck == 0, "frame " + frame + ": failed or stuck");
                ty += 1.2 * dt;
                Check(crowd.PositionsInto(xy) == 6, "positions into");
                for (int i = 0; i < 6; i++)
                {
                    double dx = xy[2 * i] - tx, dy = xy[2 * i + 1] - ty;
                    nearestTruck = Math.Min(nearestTruck, Math.Sqrt(dx * dx + dy * dy));
                    for (int j = i + 1; j < 6; j++)
                    {
                        double ex = xy[2 * i] - xy[2 * j], ey = xy[2 * i + 1] - xy[2 * j + 1];
                        nearestPair = Math.Min(nearestPair, Math.Sqrt(ex * ex + ey * ey));
                    }
                }
            }
            Check(nearestPair >= 0.99 * 2 * r, "two agents " + nearestPair + " apart");
            Check(nearestTruck >= 0.99 * (r + bigR), "an agent " + nearestTruck + " from the disc");
            var p = crowd.Positions();
            var v = crowd.Velocities();
            Check(p.Length == 12 && v.Length == 12, "positions and velocities");
            var vInto = new double[12];
            Check(crowd.VelocitiesInto(vInto) == 6, "velocities into");
            for (int k = 0; k < 12; k++) Check(vInto[k] == v[k], "velocities into " + k);
            for (int i = 0; i < 6; i++)
            {
                int g = i ^ 1;
                var st = crowd.State(i);
                Check(crowd.Arrived(i) && st.Position.X == starts[2 * g] && st.Position.Y == starts[2 * g + 1] && p[2 * i] == starts[2 * g], "agent " + i + " arrived");
                Check(st.Speed == 1.5 && (ulong)st.PathLen == 1 && st.Stuck == 0 && crowd.Error(i) == null && crowd.Stuck(i) == null && st.CrossingLink == uint.MaxValue && st.CrossingProgress == 0.0, "agent " + i + " state");
            }
            var moving = crowd.MovingObstacles();
            Check(moving.Length == 1 && moving[0].Id == truck && Math.Abs(moving[0].Center.Y - ty) < 1e-9 && moving[0].Radius == bigR, "the disc read back");
            crowd.SetMovingObstacleVelocity(truck, new Point2d(0, 0));
            // Driven from where it stands one unit along x at 2 a second: after 0.25 s it
            // is half way.
            var here = crowd.MovingObstacles()[0].Center;
            crowd.DriveMovingObstacle(truck, new double[] { here.X + 1, here.Y }, 2.0, false);
            crowd.Update(0.25);
            var driven = crowd.MovingObstacles()[0];
            Check(Math.Abs(driven.Center.X - (here.X + 0.5)) < 1e-9 && driven.Center.Y == here.Y && driven.Velocity.X == 2.0, "driven half way");
            Throws(Status.InvalidArgument, "Crowd.DriveMovingObstacle: obstacle: a moving obstacle's speed", () => crowd.DriveMovingObstacle(truck, new double[] { 1, 1 }, -1.0, true), "negative speed");
            crowd.RemoveMovingObstacle(truck);
            Check(crowd.MovingObstacles().Length == 0, "no moving obstacle left");

            // Removal: the last agent takes the removed one's index.
            Check(crowd.RemoveAgent(1) == 5 && crowd.Count == 5, "remove agent 1");
            var after = crowd.Positions();
            Check(after[2] == p[10] && after[3] == p[11], "agent 5 is now agent 1");
            Check(crowd.RemoveAgent(4) == -1 && crowd.Count == 4, "remove the last");

            // A box on agent 0's way back, repaired round; the path goes above or below it.
            crowd.SetTarget(0, new Point2d(1.5, 3.5));
            Check(crowd.Waiting(0), "waiting for the update");
            crowd.Update(dt);
            int blocked;
            ulong box = crowd.AddBox(new Point2d(11, 2.5), new Point2d(12, 4.5), out blocked);
            Check(blocked == 1, "the box blocks " + blocked);
            Check((ulong)crowd.Update(dt).Repaired == 1, "repaired");
            var path = crowd.Path(0);
            bool round = false;
            for (int k = 1; k < path.Length; k += 2) round |= path[k] < 2.5 || path[k] > 4.5;
            Check(round, "the path goes round the box");
            crowd.RemoveObstacle(box);
            // A box dropped on agent 0 pushes it out at once (the library's AddObstacle).
            var at = crowd.Positions();
            ulong onIt = crowd.AddBox(new Point2d(at[0] - 0.5, at[1] - 0.5), new Point2d(at[0] + 0.5, at[1] + 0.5), out blocked);
            var pushed = crowd.Positions();
            double moved = Math.Max(Math.Abs(pushed[0] - at[0]), Math.Abs(pushed[1] - at[1]));
            Check(blocked >= 1 && moved >= 0.5 + r - 1e-9, "pushed out of the box: " + moved);
            crowd.RemoveObstacle(onIt);
            ulong disk = crowd.AddDisk(new Point2d(5, 9), 0.5, out blocked);
            ulong poly = crowd.AddPolygon(new double[] { 8, 9, 9, 9, 8.5, 10 }, out blocked);
            ulong cells = crowd.AddCells(new[] { 20, 1, 21, 1 }, out blocked);
            Check(disk != poly && poly != cells, "obstacle ids");

            // An agent of its own radius: its state says so; a NaN radius is refused.
            int big = crowd.AddAgent(new Point2d(3.5, 9.5), new Point2d(6.5, 9.5), 1.0, 0.45);
            Check(crowd.State(big).Radius == 0.45 && crowd.State(0).Radius == r, "agent radii");
            Throws(Status.InvalidArgument, "radius", () => crowd.AddAgent(new Point2d(1.5, 1.5), new Point2d(2.5, 2.5), 1.0, double.NaN), "NaN radius");
            Check(crowd.RemoveAgent(big) == -1, "remove the large agent");

            // A target in nowhere: refused by the update, the old one kept, and why.
            crowd.SetTarget(1, new Point2d(50, 50));
            Check((ulong)crowd.Update(dt).Refused == 1 && crowd.Error(1) != null, "refused target: " + crowd.Error(1));

            // Bad input.
            Throws(Status.InvalidArgument, "Crowd.SetTarget: `target` (NaN, 1) is not finite", () => crowd.SetTarget(0, new Point2d(double.NaN, 1)), "NaN target");
            Throws(Status.InvalidArgument, "`agent` = 9 is out of range", () => crowd.SetTarget(9, new Point2d(1, 1)), "agent out of range");
            Throws(Status.InvalidArgument, "Crowd.State: `agent` = -1", () => crowd.State(-1), "negative agent");
            Throws(Status.InvalidArgument, "`dt`", () => crowd.Update(double.NaN), "NaN dt");
            Throws(Status.InvalidArgument, "speed", () => crowd.AddAgent(new Point2d(1.5, 1.5), new Point2d(2.5, 2.5), 0), "zero speed");
            Throws(Status.InvalidArgument, "Crowd.RemoveMovingObstacle", () => crowd.RemoveMovingObstacle(truck), "removed disc");
            Throws(Status.InvalidArgument, "Crowd.RemoveObstacle", () => crowd.RemoveObstacle(box), "removed box");
            Throws(Status.InvalidArgument, "Crowd.AddMovingObstacle", () => crowd.AddMovingObstacle(new Point2d(1, 1), -1, new Point2d(0, 0)), "negative disc radius");
            var small = new double[2];
            var e = Throws(Status.BufferTooSmall, "Crowd.PositionsInto: the buffer holds 1 points but 4 are needed", () => crowd.PositionsInto(small), "too small");
            Check(e != null && e.Needed == 4, "needed");
            e = Throws(Status.BufferTooSmall, "Crowd.VelocitiesInto: the buffer holds 1 points but 4 are needed", () => crowd.VelocitiesInto(small), "too small");
            Check(e != null && e.Needed == 4, "velocities needed");
            var settings = Crowd.Avoiding();
            settings.Threads = UIntPtr.Zero;
            Throws(Status.InvalidArgument, "threads", () => new Crowd(room, r, Preset.Smooth, settings), "0 threads");
        }
        // Threads: the same walk on two threads, the same positions.
        var two = Crowd.Avoiding();
        two.Threads = (UIntPtr)2;
        using (var room = World.Grid(open, 24, 12, 1.0))
        using (var a = new Crowd(room, r, Preset.Smooth, Crowd.Avoiding()))
        using (var b = new Crowd(room, r, Preset.Smooth, two))
        {
            foreach (var c in new[] { a, b })
                for (int i = 0; i < 6; i++)
                    c.AddAgent(new Point2d(starts[2 * i], starts[2 * i + 1]), new Point2d(starts[2 * (i ^ 1)], starts[2 * (i ^ 1) + 1]), 1.5);
            bool same = true;
            for (int frame = 0; frame < 60; frame++)
            {
                a.Update(dt); b.Update(dt);
                var pa = a.Positions(); var pb = b.Positions();
                for (int k = 0; k < pa.Length; k++) same &= pa[k] == pb[k];
            }
            Check(same, "one and two threads walk alike");
        }
        // A speed profile: the first step from rest, at most MaxAccel × dt.
        var limited = Crowd.Avoiding();
        limited.SpeedProfile = 1;
        limited.MaxAccel = 2.0;
        using (var room = World.Grid(open, 24, 12, 1.0))
        using (var c = new Crowd(room, r, Preset.Smooth, limited))
        {
            c.AddAgent(new Point2d(1.5, 6.5), new Point2d(22.5, 6.5), 1.5);
            c.Update(dt);
            var v = c.Velocities();
            Check(Math.Abs(Math.Sqrt(v[0] * v[0] + v[1] * v[1]) - 2.0 * dt) < 1e-12, "a first step from rest");
            limited.MaxBrake = 0;
            Throws(Status.InvalidArgument, "max_brake", () => new Crowd(room, r, Preset.Smooth, limited), "no brake");
        }
        // A navmesh crowd: two squares side by side, one agent across.
        using (var mesh = World.NavMesh(new double[] { 0, 0, 4, 0, 8, 0, 8, 4, 4, 4, 0, 4 },
                                        new uint[] { 0, 1, 4, 5, 1, 2, 3, 4 }, new uint[] { 4, 4 }))
        using (var walkers = new Crowd(mesh, 0.25, new[] { new Step(StepKind.Funnel) }))
        {
            int w = walkers.AddAgent(new Point2d(1, 1), new Point2d(7, 3), 2.0);
            for (int frame = 0; frame < 300 && !walkers.Arrived(w); frame++) walkers.Update(dt);
            Check(walkers.Arrived(w), "the navmesh agent arrived");
            int blocked;
            Throws(Status.InvalidArgument, "Crowd.AddCells", () => walkers.AddCells(new[] { 1, 1 }, out blocked), "cells on a navmesh");
        }
        // A disposed crowd is refused by the SafeHandle.
        var gone = new Crowd(World.Grid(open, 24, 12, 1.0), r);
        gone.Dispose();
        try { gone.Update(dt); Check(false, "disposed crowd"); }
        catch (ObjectDisposedException) { Check(true, "disposed crowd"); }
    }

    static int Main(string[] args)
    {
        if (args.Length < 1 || (args.Length - 1) % 4 != 0)
        {
            Console.Error.WriteLine("usage: test.exe MAP [sx sy gx gy]...");
            return 2;
        }
        var lines = File.ReadAllLines(args[0]);
        int height = int.Parse(lines[1].Split(' ')[1]), width = int.Parse(lines[2].Split(' ')[1]);
        var free = new byte[width * height];
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
            {
                char c = lines[4 + y][x];
                free[y * width + x] = (byte)(c == '.' || c == 'G' || c == 'S' ? 1 : 0);
            }

        using (var world = World.Grid(free, width, height, 1.0))
        using (var shortest = new Pipeline(world, 0.3, Preset.Shortest))
        using (var smooth = new Pipeline(world, 0.3, Preset.Smooth))
        {
            Func<int, double> arg = k => double.Parse(args[k], CultureInfo.InvariantCulture);
            for (int i = 0; 1 + 4 * i < args.Length; i++)
            {
                var start = new Point2d(arg(1 + 4 * i), arg(2 + 4 * i));
                var goal = new Point2d(arg(3 + 4 * i), arg(4 + 4 * i));
                var a = shortest.Plan(start, goal);
                Print("shortest", i, a);
                Print("smooth", i, smooth.Smooth(a));
                Check(smooth.Report.MinClearance >= 0.3, "clearance");
                Print("plan", i, smooth.Plan(start, goal));
            }
            SurfaceFile();
            EveryCorpusFile();
            CrowdChecks();

            // Bad input: each a PathsmoothException with the library's message.
            var s0 = new Point2d(1.5, 11.5);
            Throws(Status.InvalidArgument, "NaN", () => smooth.Plan(new Point2d(double.NaN, 1.5), s0), "NaN start");
            Throws(Status.InvalidArgument, "point 1 has a NaN", () => smooth.Smooth(new double[] { 1.5, 11.5, double.NaN, 12.5 }), "NaN in a path");
            Throws(Status.InvalidArgument, "empty", () => smooth.Smooth((double[])null), "null path (no points)");
            Throws(Status.InvalidArgument, "empty", () => smooth.Smooth(new double[0]), "empty path");
            Throws(Status.OutsideWorld, "inside a wall", () => smooth.Plan(new Point2d(0.5, 0.5), s0), "start in a wall");
            Throws(Status.InvalidArgument, "radius", () => new Pipeline(world, -1.0), "negative radius");
            Throws(Status.InvalidArgument, "no free space", () => World.Grid(new byte[4], 2, 2, 1.0), "no free cell");
            Throws(Status.NullPointer, "`free` is NULL", () => World.Grid(null, 2, 2, 1.0), "null grid");

            // Area costs: round the swamp block (cost 4), never costlier than the planner.
            string[] rows = { "..........", "..SSSSSS..", "..SSSSSS..", "..SSSSSS..", ".........." };
            var open = new byte[50];
            var areas = new byte[50];
            for (int k = 0; k < 50; k++) { open[k] = 1; areas[k] = (byte)rows[k / 10][k % 10]; }
            using (var swamp = World.Grid(open, areas, "S=4", 10, 5, 1.0))
            using (var round = new Pipeline(swamp, 0.0, Preset.Smooth))
            {
                round.Plan(new Point2d(0.5, 2.5), new Point2d(9.5, 2.5));
                var r = round.Report;
                Check(r.Cost <= r.InputCost * (1 + 1e-9) && r.Cost < 12.0, "round the swamp: " + r.Cost);
            }
            Throws(Status.InvalidArgument, "area cost for S", () => World.Grid(open, areas, "S=0", 10, 5, 1.0), "zero cost");

            // A navmesh of 5 × 3 unit squares whose middle one (area 2) is excluded.
            var xy = new double[48];
            for (int v = 0; v < 24; v++) { xy[2 * v] = v % 6; xy[2 * v + 1] = v / 6; }
            var idx = new uint[60];
            var sizes = new uint[15];
            var squareAreas = new byte[15];
            for (int q = 0; q < 15; q++)
            {
                uint v = (uint)((q / 5) * 6 + q % 5);
                idx[4 * q] = v; idx[4 * q + 1] = v + 1; idx[4 * q + 2] = v + 7; idx[4 * q + 3] = v + 6;
                sizes[q] = 4;
                squareAreas[q] = (byte)(q == 7 ? 2 : 63);
            }
            using (var mesh = World.NavMesh(xy, idx, sizes, null, squareAreas, "2=exclude"))
            using (var onMesh = new Pipeline(mesh, 0.0, Preset.Smooth))
            {
                var got = onMesh.Plan(new Point2d(0.5, 1.5), new Point2d(4.5, 1.5));
                Check(got.Length >= 6, "round the excluded square");
                Throws(Status.OutsideWorld, "which the area costs exclude", () => onMesh.Plan(new Point2d(2.5, 1.5), new Point2d(4.5, 1.5)), "start in an excluded area");
            }

            // Too small: the needed length; the retry gets the kept result.
            var goal0 = new Point2d(46.5, 40.5);
            var small = new double[4];
            var e = Throws(Status.BufferTooSmall, "are needed", () => smooth.PlanInto(s0, goal0, small), "too small");
            if (e != null)
            {
                var big = new double[2 * e.Needed];
                Check(smooth.PlanInto(s0, goal0, big) == e.Needed, "retry with room");
                var again = smooth.Plan(s0, goal0);
                Check(again.Length == big.Length && again[again.Length - 1] == 40.5, "same path");
            }

            // Float points.
            var f = smooth.Plan(new Point2f(1.5f, 11.5f), new Point2f(46.5f, 40.5f));
            Check(f.Length >= 4 && f[f.Length - 2] == 46.5f, "float plan");

            // Unity's way in: triangles (each with its own vertex copies), y up.
            var xyz = new double[] { 0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 0, 10, 0, 10, 0, 0, 10 };
            using (var floor = World.SurfaceFromTriangulation(xyz, new[] { 0, 1, 2, 3, 4, 5 }, new[] { 0, 3 }))
            using (var walker = new Pipeline(floor, 0.5))
            {
                uint[] polygons;
                var p3 = walker.Plan3(new Point3d(1, 0, 1), new Point3d(9, 0, 9), out polygons);
                Check(p3.Length == 6 && p3[1] == 0 && p3[3] == 9 && p3[5] == 9 && polygons.Length == 2, "surface plan");
                // 2D ends are in plan view (x and z here, y up): the same path.
                var flat = walker.Plan(new Point2d(1, 1), new Point2d(9, 9));
                Check(flat.Length == 4 && flat[0] == 1 && flat[1] == 1 && flat[2] == 9 && flat[3] == 9, "2D plan on a surface");
                Throws(Status.OutsideWorld, "outside", () => walker.Plan(s0, goal0), "2D end off the surface");
                Throws(Status.OutsideWorld, "no floor", () => walker.Plan3(new Point3d(1, 50, 1), new Point3d(9, 0, 9), out polygons), "no floor");
            }
            // A navmesh from convex polygons: two unit squares side by side.
            using (var mesh = World.NavMesh(new double[] { 0, 0, 1, 0, 2, 0, 2, 1, 1, 1, 0, 1 },
                                            new uint[] { 0, 1, 4, 5, 1, 2, 3, 4 }, new uint[] { 4, 4 }))
            using (var across = new Pipeline(mesh, 0.1, new[] { new Step(StepKind.Funnel) }))
            {
                var q = across.Plan(new Point2d(0.5, 0.5), new Point2d(1.5, 0.5));
                Check(q.Length == 4 && q[2] == 1.5, "navmesh plan");
            }
            Throws(Status.InvalidArgument, "not convex", () => World.NavMesh(new double[] { 0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2 },
                                                                            new uint[] { 0, 1, 2, 3, 4, 5 }, new uint[] { 6 }), "non-convex polygon");

            // A disposed pipeline is refused by the SafeHandle, never passed on.
            var gone = new Pipeline(world, 0.3);
            gone.Dispose();
            try { gone.Plan(s0, goal0); Check(false, "disposed pipeline"); }
            catch (ObjectDisposedException) { Check(true, "disposed pipeline"); }
        }
        Console.Error.WriteLine("c# test: " + checks + " checks, " + failures + " failed");
        return failures == 0 ? 0 : 1;
    }
}
