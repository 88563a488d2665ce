// pathsmooth from C#: a game's own occupancy grid (0.5 m cells), an agent of radius 0.4 m,
// a smooth path around a wall.
//
//   cargo build -p pathsmooth-ffi
//   mcs -unsafe -out:quickstart.exe bindings/csharp/Pathsmooth.cs bindings/csharp/Quickstart.cs
//   LD_LIBRARY_PATH=target/debug mono quickstart.exe
using System;
using Pathsmooth;

static class Quickstart
{
    static void Main()
    {
        string[] rows = { "............", "............", "............", "....####....",
                          "....####....", "............", "............", "............" };
        var free = new byte[12 * 8]; // row-major, row 0 first: cell (x, y) is free[y * 12 + x]
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 12; x++) free[y * 12 + x] = (byte)(rows[y][x] == '.' ? 1 : 0);

        using (var world = World.Grid(free, 12, 8, 0.5))
        using (var pipeline = new Pipeline(world, 0.4, Preset.Smooth))
        {
            try
            {
                double[] path = pipeline.Plan(new Point2d(0.75, 2.25), new Point2d(5.25, 1.75));
                var report = pipeline.Report;
                Console.WriteLine("{0} points, length {1:F3} m, clearance {2:F3} m",
                                  path.Length / 2, report.Length, report.MinClearance);
                for (int i = 0; i < path.Length; i += 2) Console.WriteLine("{0:F4} {1:F4}", path[i], path[i + 1]);
            }
            catch (PathsmoothException e)
            {
                Console.Error.WriteLine("pathsmooth: " + e.Message); // status and the library's message
            }
        }
    }
}
