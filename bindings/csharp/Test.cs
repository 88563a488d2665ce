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
        }
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: areas[1] = 300", () => World.SurfaceFromTriangulation(xyz, tris, new[] { 0, 300 }), "area out of range");
        Throws(Status.InvalidArgument, "indices[2] = -1 is negative", () => World.SurfaceFromTriangulation(xyz, new[] { 0, 1, -1 }), "negative index");
        Throws(Status.InvalidArgument, "areas holds 1 entries", () => World.SurfaceFromTriangulation(xyz, tris, new[] { 0 }), "too few areas");
        var nan = (float[])xyz.Clone();
        nan[4] = float.NaN;
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: point 1 has a NaN", () => World.SurfaceFromTriangulation(nan, tris), "NaN vertex");
        Throws(Status.InvalidArgument, "World.SurfaceFromTriangulation: parameter `indices` = 5", () => World.SurfaceFromTriangulation(new double[18], new uint[5]), "partial triangle");
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
                Throws(Status.Unsupported, "ps_pipeline_plan3_f64", () => walker.Plan(s0, goal0), "2D plan on a surface");
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
