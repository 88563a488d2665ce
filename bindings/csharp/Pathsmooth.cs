// pathsmooth for C#: P/Invoke over the C ABI (crates/pathsmooth-ffi, header
// include/pathsmooth.h). Loads the native library `pathsmooth_ffi`
// (libpathsmooth_ffi.so on Linux, libpathsmooth_ffi.dylib on macOS, pathsmooth_ffi.dll on
// Windows). Compiles with `-unsafe` (Mono's mcs, Unity: "Allow 'unsafe' code").
//
// Handles are SafeHandles (freed by Dispose or the finalizer). Inputs are pinned with
// `fixed`, not copied; outputs go into a buffer the pipeline reuses (grown on
// PS_BUFFER_TOO_SMALL: the native side keeps the result, so the retry does not recompute),
// or into the caller's array with the *Into methods. Every failure is a
// PathsmoothException carrying the library's status and message (the surface loaders'
// and the climb's messages start with the C# method's name).
//
// Threads: a World may be shared by threads; a Pipeline must be used by one thread at a
// time (give each thread its own).
using System;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

namespace Pathsmooth
{
    /// <summary>The C ABI's status codes (PS_*).</summary>
    public enum Status
    {
        Ok = 0,
        NullPointer = 1,
        Misaligned = 2,
        WrongHandle = 3,
        BufferTooSmall = 4,
        InvalidArgument = 5,
        OutsideWorld = 6,
        NoPath = 7,
        Unsupported = 8,
        InvalidResult = 9,
        Error = 10,
        Panic = 11,
        /// <summary>A file could not be read (missing, unreadable); a malformed one is
        /// InvalidArgument.</summary>
        IoError = 12,
    }

    /// <summary>Ready-made step lists (PS_PRESET_*).</summary>
    public enum Preset : uint { Shortest = 0, Smooth = 1, Corridor = 2 }

    /// <summary>Step kinds (PS_STEP_*).</summary>
    public enum StepKind : uint
    {
        Shortcut = 0, Chaikin = 1, CatmullRom = 2, Resample = 3,
        Funnel = 4, Relax = 5, Corridor = 6, Fillet = 7,
    }

    /// <summary>Which axis is up on a surface (PS_UP_*): Y for Unity, Z for Unreal.</summary>
    public enum UpAxis : uint { Y = 0, Z = 1 }

    /// <summary>One step: its kind and its parameter (the spacing of Resample, the turning
    /// radius of Fillet; ignored by the others).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Step
    {
        public StepKind Kind;
        public double Value;
        public Step(StepKind kind, double value = 0) { Kind = kind; Value = value; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Point2d
    {
        public double X, Y;
        public Point2d(double x, double y) { X = x; Y = y; }
        public override string ToString() { return "(" + X + ", " + Y + ")"; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Point2f
    {
        public float X, Y;
        public Point2f(float x, float y) { X = x; Y = y; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Point3d
    {
        public double X, Y, Z;
        public Point3d(double x, double y, double z) { X = x; Y = y; Z = z; }
    }

    /// <summary>What the last run of a pipeline did (PsReport).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Report
    {
        public double MinClearance, Length, MaxTurn, TotalTurn;
        public UIntPtr RepairedSegments, SkippedCount, CornersBelowTurnRadius;
        /// <summary>The cost of the steps' input and of the result under the world's area
        /// costs (lengths without them); Cost never exceeds InputCost (relative 1e-9).</summary>
        public double InputCost, Cost;
        /// <summary>The path's plan-view length (on a surface, where Length is its 3D length
        /// along the floors; Length elsewhere).</summary>
        public double PlanLength;
        /// <summary>How far (plan view) the start and the goal were moved onto the surface
        /// because they were off it; 0 for an end on it (over a polygon within the climb of
        /// its floor: its plan-view position is kept exactly).</summary>
        public double StartSnapped, GoalSnapped;
    }

    /// <summary>How a Crowd runs (PsCrowdSettings); Crowd.DefaultSettings() gives the
    /// defaults: 1 thread, no plan budget, no avoidance, and the library's avoidance
    /// settings for a caller that turns it on.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdSettings
    {
        /// <summary>Threads an update runs on (1 to 256; results do not depend on it).</summary>
        public UIntPtr Threads;
        /// <summary>The most new targets planned per update; 0: no limit.</summary>
        public UIntPtr PlanBudget;
        /// <summary>1: the agents avoid one another, the walls and the moving obstacles
        /// (ORCA); 0: they walk through one another.</summary>
        public uint Avoidance;
        /// <summary>Seconds ahead that collisions with neighbours are avoided (default 2).</summary>
        public double TimeHorizon;
        /// <summary>The most neighbours each agent avoids (default 10).</summary>
        public UIntPtr MaxNeighbours;
        /// <summary>Seconds ahead that an avoiding agent keeps off the walls (default 1).</summary>
        public double WallTimeHorizon;
        /// <summary>How far neighbours are looked for; 0: automatic.</summary>
        public double NeighbourDistance;
        /// <summary>1: the agents keep motion limits (the three below): they start from
        /// rest, slow before bends and brake to stand at their goals; 0: each walks at its
        /// speed from its first update on.</summary>
        public uint SpeedProfile;
        /// <summary>The most an agent speeds up, units/s² (default 4).</summary>
        public double MaxAccel;
        /// <summary>The most an agent brakes, units/s² (default 6).</summary>
        public double MaxBrake;
        /// <summary>The most sideways acceleration in a bend, units/s² (default 4).</summary>
        public double MaxLateralAccel;
    }

    /// <summary>What one Crowd.Update did, summed over the agents (PsCrowdFrame).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdFrame
    {
        public UIntPtr Moved, Replans, Adjusted, Refused, Failed, Repaired, Stuck, Waiting;
    }

    /// <summary>One agent's state (PsAgentState); the flags are 0 or 1.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentState
    {
        public Point2d Position, Target, Velocity;
        public double Speed, Radius;
        public UIntPtr PathLen;
        public uint Arrived, Waiting, Stuck, HasError;
        /// <summary>The agent it gives way to (head-on in a passage too narrow for both),
        /// or all bits set (PS_NO_AGENT) when none.</summary>
        public UIntPtr GivingWay;
        /// <summary>The off-mesh link it is on its way over (its index among the surface's
        /// links), or uint.MaxValue (PS_NO_LINK): on a crowd made on a surface, an agent
        /// takes a link over time; Position is where it is on the way.</summary>
        public uint CrossingLink;
        /// <summary>The part of that way behind it, from 0 towards 1; 0 on no link.</summary>
        public double CrossingProgress;
    }

    /// <summary>A moving obstacle as Crowd.MovingObstacles gives it.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MovingObstacle
    {
        public ulong Id;
        public Point2d Center;
        public double Radius;
        public Point2d Velocity;
    }

    /// <summary>A failed call: the status and the library's message.</summary>
    public class PathsmoothException : Exception
    {
        public readonly Status Status;
        /// <summary>For Status.BufferTooSmall: the points needed.</summary>
        public readonly long Needed;
        public PathsmoothException(Status status, string message, long needed = 0)
            : base(status + ": " + message) { Status = status; Needed = needed; }
    }

    public sealed class WorldHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public WorldHandle() : base(true) { }
        protected override bool ReleaseHandle() { return Native.ps_world_destroy(handle) == Status.Ok; }
    }

    public sealed class PipelineHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public PipelineHandle() : base(true) { }
        protected override bool ReleaseHandle() { return Native.ps_pipeline_destroy(handle) == Status.Ok; }
    }

    public sealed class CrowdHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public CrowdHandle() : base(true) { }
        protected override bool ReleaseHandle() { return Native.ps_crowd_destroy(handle) == Status.Ok; }
    }

    internal static unsafe class Native
    {
        const string Lib = "pathsmooth_ffi";
        const CallingConvention C = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr ps_last_error(byte* buf, UIntPtr capacity);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_grid_new(byte* free, UIntPtr width, UIntPtr height, double cellSize, double originX, double originY, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_grid_new_areas(byte* free, byte* areas, UIntPtr width, UIntPtr height, double cellSize, double originX, double originY, byte* areaCosts, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_navmesh_new_areas(double* verticesXY, UIntPtr vertexCount, uint* indices, uint* polygonSizes, UIntPtr polygonCount, uint* ids, byte* areas, byte* areaCosts, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_navmesh_new(double* verticesXY, UIntPtr vertexCount, uint* indices, uint* polygonSizes, UIntPtr polygonCount, uint* ids, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_new(double* verticesXYZ, UIntPtr vertexCount, uint* indices, uint* polygonSizes, UIntPtr polygonCount, byte* areas, uint upAxis, double weld, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_load(byte* path, byte* detailPath, uint upAxis, double weld, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_from_triangulation(double* verticesXYZ, UIntPtr vertexCount, uint* indices, UIntPtr indexCount, byte* areas, double weld, out WorldHandle world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_load_report(WorldHandle world, byte* buf, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_climb(WorldHandle world, out double climb);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_polygon_ref(WorldHandle world, uint polygon, out ulong polygonRef);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_locate(WorldHandle world, UIntPtr n, Point3d* points, uint* outPolygons, Point3d* outPoints);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_surface_move_along(WorldHandle world, UIntPtr n, uint* polygons, Point3d* starts, Point3d* targets, uint* outPolygons, Point3d* outPoints);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_world_destroy(IntPtr world);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_new_preset(WorldHandle world, uint preset, double radius, out PipelineHandle pipeline);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_new_steps(WorldHandle world, Step* steps, UIntPtr stepCount, double radius, out PipelineHandle pipeline);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_destroy(IntPtr pipeline);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_plan_f64(PipelineHandle pipeline, Point2d start, Point2d goal, double* outPoints, UIntPtr outCapacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_plan_f32(PipelineHandle pipeline, Point2f start, Point2f goal, float* outPoints, UIntPtr outCapacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_smooth_f64(PipelineHandle pipeline, double* inPoints, UIntPtr n, double* outPoints, UIntPtr outCapacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_smooth_f32(PipelineHandle pipeline, float* inPoints, UIntPtr n, float* outPoints, UIntPtr outCapacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_plan3_f64(PipelineHandle pipeline, Point3d start, Point3d goal, double* outPoints, uint* outPolygons, UIntPtr outCapacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_set_climb(PipelineHandle pipeline, double climb);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_report(PipelineHandle pipeline, out Report report);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_pipeline_skipped(PipelineHandle pipeline, UIntPtr index, byte* buf, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_settings_default(out CrowdSettings settings);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_new_preset(WorldHandle world, uint preset, double radius, CrowdSettings* settings, out CrowdHandle crowd);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_new_steps(WorldHandle world, Step* steps, UIntPtr stepCount, double radius, CrowdSettings* settings, out CrowdHandle crowd);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_destroy(IntPtr crowd);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_radius(CrowdHandle crowd, out double radius);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_agent_count(CrowdHandle crowd, out UIntPtr count);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_agent(CrowdHandle crowd, Point2d position, Point2d target, double speed, out UIntPtr agent);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_agent_with_radius(CrowdHandle crowd, Point2d position, Point2d target, double speed, double radius, out UIntPtr agent);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_remove_agent(CrowdHandle crowd, UIntPtr agent, out UIntPtr moved);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_set_target(CrowdHandle crowd, UIntPtr agent, Point2d target);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_agent_on_surface(CrowdHandle crowd, Point3d position, Point3d target, double speed, out UIntPtr agent);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_agent_on_surface_with_radius(CrowdHandle crowd, Point3d position, Point3d target, double speed, double radius, out UIntPtr agent);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_set_target_on_surface(CrowdHandle crowd, UIntPtr agent, Point3d target);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_update(CrowdHandle crowd, double dt, out CrowdFrame frame);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_positions(CrowdHandle crowd, double* outXY, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_positions3(CrowdHandle crowd, double* outXYZ, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_velocities(CrowdHandle crowd, double* outXY, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_agent_state(CrowdHandle crowd, UIntPtr agent, out AgentState state);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_agent_path(CrowdHandle crowd, UIntPtr agent, double* outPoints, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_agent_error(CrowdHandle crowd, UIntPtr agent, byte* buf, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_agent_stuck(CrowdHandle crowd, UIntPtr agent, byte* buf, UIntPtr capacity, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_box(CrowdHandle crowd, Point2d min, Point2d max, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_disk(CrowdHandle crowd, Point2d center, double radius, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_box_on_floor(CrowdHandle crowd, Point2d min, Point2d max, Point3d floor, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_disk_on_floor(CrowdHandle crowd, Point2d center, double radius, Point3d floor, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_polygon(CrowdHandle crowd, double* verticesXY, UIntPtr n, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_polygon_on_floor(CrowdHandle crowd, double* verticesXY, UIntPtr n, Point3d floor, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_cells(CrowdHandle crowd, int* cellsXY, UIntPtr n, out ulong id, out UIntPtr blocked);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_remove_obstacle(CrowdHandle crowd, ulong id);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_add_moving_obstacle(CrowdHandle crowd, Point2d center, double radius, Point2d velocity, out ulong id);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_set_moving_obstacle_velocity(CrowdHandle crowd, ulong id, Point2d velocity);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_set_moving_obstacle_floor(CrowdHandle crowd, ulong id, double floor);
        [DllImport(Lib, CallingConvention = C)] internal static extern unsafe Status ps_crowd_drive_moving_obstacle(CrowdHandle crowd, ulong id, double* routeXY, UIntPtr n, double speed, uint looped);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_remove_moving_obstacle(CrowdHandle crowd, ulong id);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status ps_crowd_moving_obstacles(CrowdHandle crowd, MovingObstacle* output, UIntPtr capacity, out UIntPtr outLen);

        /// <summary>The calling thread's last error message.</summary>
        internal static string LastError()
        {
            var bytes = new byte[512];
            for (;;)
            {
                ulong len;
                fixed (byte* b = bytes) len = (ulong)ps_last_error(b, (UIntPtr)bytes.Length);
                if (len < (ulong)bytes.Length) return Encoding.UTF8.GetString(bytes, 0, (int)len);
                bytes = new byte[len + 1];
            }
        }

        /// <summary>A call that writes a text into buf (UTF-8, cut to capacity − 1 bytes,
        /// then a NUL) and its full length into len.</summary>
        internal delegate Status TextCall(byte* buf, UIntPtr capacity, out UIntPtr len);

        /// <summary>The text a call writes: asked for its length first, then read into a
        /// buffer that holds it; check sees the status of each call.</summary>
        internal static string Text(TextCall call, Action<Status> check)
        {
            UIntPtr len;
            check(call(null, UIntPtr.Zero, out len));
            var bytes = new byte[(int)(ulong)len + 1];
            fixed (byte* b = bytes)
                check(call(b, (UIntPtr)bytes.Length, out len));
            return Encoding.UTF8.GetString(bytes, 0, (int)(ulong)len);
        }

        internal static void Check(Status status, ulong needed = 0)
        {
            if (status != Status.Ok) throw new PathsmoothException(status, LastError(), (long)needed);
        }

        /// <summary>Check for a call whose errors name the C# method `what`: the C
        /// function's name that starts the message ("ps_...: ") gives way to it.</summary>
        internal static void Check(Status status, string what)
        {
            if (status == Status.Ok) return;
            throw Fail(status, what, WithoutFunction(LastError()));
        }

        internal static string WithoutFunction(string message)
        {
            int colon = message.IndexOf(": ", StringComparison.Ordinal);
            if (message.StartsWith("ps_", StringComparison.Ordinal) && colon > 0 && message.IndexOf(' ') == colon + 1)
                return message.Substring(colon + 2);
            return message;
        }

        /// <summary>The exception for a failure of the C# method `what`.</summary>
        internal static PathsmoothException Fail(Status status, string what, string message)
        {
            return new PathsmoothException(status, what + ": " + message);
        }
    }

    /// <summary>A world: a grid, a navmesh or a layered surface. Immutable; may be shared
    /// by threads. Pipelines keep it alive.</summary>
    public sealed class World : IDisposable
    {
        internal readonly WorldHandle Handle;
        World(WorldHandle handle) { Handle = handle; }
        public void Dispose() { Handle.Dispose(); }

        /// <summary>A grid of width × height cells of cellSize world units, cell (0, 0)'s
        /// corner at the origin. Cell (x, y) is free[y * width + x] (row 0 first, rows
        /// towards +y), nonzero meaning passable.</summary>
        public static unsafe World Grid(byte[] free, int width, int height, double cellSize, double originX = 0, double originY = 0)
        {
            if (free != null && (width < 0 || height < 0 || (long)width * height > free.Length))
                throw new ArgumentException("free holds " + free.Length + " cells, not " + width + " × " + height);
            WorldHandle h;
            fixed (byte* f = free)
                Native.Check(Native.ps_world_grid_new(f, (UIntPtr)width, (UIntPtr)height, cellSize, originX, originY, out h));
            return new World(h);
        }

        /// <summary>A grid with areas and area costs: areas (null: all ground, '.') gives
        /// each cell an area id, laid out as free; areaCosts (null: the default, all 1 and
        /// Moving AI water 'W' excluded) is "AREA=COST,...", AREA a letter or an id 0–255,
        /// COST a positive multiplier or "exclude". Planning minimises length × cost and
        /// smoothing never raises it.</summary>
        public static unsafe World Grid(byte[] free, byte[] areas, string areaCosts, int width, int height, double cellSize, double originX = 0, double originY = 0)
        {
            if (free != null && (width < 0 || height < 0 || (long)width * height > free.Length))
                throw new ArgumentException("free holds " + free.Length + " cells, not " + width + " × " + height);
            if (areas != null && (long)width * height > areas.Length)
                throw new ArgumentException("areas holds " + areas.Length + " cells, not " + width + " × " + height);
            byte[] spec = areaCosts == null ? null : Utf8(areaCosts);
            WorldHandle h;
            fixed (byte* f = free) fixed (byte* a = areas) fixed (byte* c = spec)
                Native.Check(Native.ps_world_grid_new_areas(f, a, (UIntPtr)width, (UIntPtr)height, cellSize, originX, originY, c, out h));
            return new World(h);
        }

        /// <summary>A NUL-terminated UTF-8 copy of s.</summary>
        static byte[] Utf8(string s)
        {
            byte[] text = System.Text.Encoding.UTF8.GetBytes(s);
            byte[] z = new byte[text.Length + 1];
            Array.Copy(text, z, text.Length);
            return z;
        }

        /// <summary>A navmesh from convex polygons in the plane: vertices as x, y pairs;
        /// polygon i is the next polygonSizes[i] indices; ids (null: 0, 1, 2, …).</summary>
        public static unsafe World NavMesh(double[] verticesXY, uint[] indices, uint[] polygonSizes, uint[] ids = null)
        {
            CheckLengths(verticesXY, 2, indices, polygonSizes);
            if (ids != null && ids.Length != polygonSizes.Length) throw new ArgumentException("one id per polygon");
            WorldHandle h;
            fixed (double* v = verticesXY) fixed (uint* i = indices) fixed (uint* s = polygonSizes) fixed (uint* d = ids)
                Native.Check(Native.ps_world_navmesh_new(v, (UIntPtr)(Len(verticesXY) / 2), i, s, (UIntPtr)Len(polygonSizes), d, out h));
            return new World(h);
        }

        /// <summary>A navmesh with an area id per polygon (areas; null: 63 each) and area
        /// costs (areaCosts: "AREA=COST,...", AREA an id 0–255, COST a positive multiplier
        /// or "exclude"; null: every area 1).</summary>
        public static unsafe World NavMesh(double[] verticesXY, uint[] indices, uint[] polygonSizes, uint[] ids, byte[] areas, string areaCosts)
        {
            CheckLengths(verticesXY, 2, indices, polygonSizes);
            if (ids != null && ids.Length != polygonSizes.Length) throw new ArgumentException("one id per polygon");
            if (areas != null && areas.Length != polygonSizes.Length) throw new ArgumentException("one area per polygon");
            byte[] spec = areaCosts == null ? null : Utf8(areaCosts);
            WorldHandle h;
            fixed (double* v = verticesXY) fixed (uint* i = indices) fixed (uint* s = polygonSizes) fixed (uint* d = ids) fixed (byte* a = areas) fixed (byte* c = spec)
                Native.Check(Native.ps_world_navmesh_new_areas(v, (UIntPtr)(Len(verticesXY) / 2), i, s, (UIntPtr)Len(polygonSizes), d, a, c, out h));
            return new World(h);
        }

        /// <summary>A layered navmesh surface from 3D vertices (x, y, z each) and convex
        /// polygons, an area id per polygon (null: all 0), the up axis, and the distance
        /// within which vertices are merged.</summary>
        public static unsafe World Surface(double[] verticesXYZ, uint[] indices, uint[] polygonSizes, byte[] areas = null, UpAxis up = UpAxis.Y, double weld = 0)
        {
            CheckLengths(verticesXYZ, 3, indices, polygonSizes);
            if (areas != null && areas.Length != polygonSizes.Length) throw new ArgumentException("one area per polygon");
            WorldHandle h;
            fixed (double* v = verticesXYZ) fixed (uint* i = indices) fixed (uint* s = polygonSizes) fixed (byte* a = areas)
                Native.Check(Native.ps_world_surface_new(v, (UIntPtr)(Len(verticesXYZ) / 3), i, s, (UIntPtr)Len(polygonSizes), a, (uint)up, weld, out h));
            return new World(h);
        }

        /// <summary>A surface from a navmesh file, its format found from its bytes: the
        /// navmesh JSON, Recast's and rerecast's JSON, Godot scenes (.tscn, .tres; 3D or 2D), Detour
        /// binaries, OBJ (Unity exports) and polyanya .mesh. detailPath: a second file with
        /// the detail mesh of a Recast or rerecast JSON poly mesh (null: none). up: null for
        /// the file's own axis (OBJ and .mesh files, which do not say, are read y up); a
        /// format that fixes its axis must agree. weld: vertices closer than this are merged
        /// (negative: the library's default, 1e-6 of the mesh's size). What the reader
        /// repaired is LoadReport. Errors: PathsmoothException naming World.LoadSurface
        /// (IoError for a file that cannot be read, InvalidArgument for a malformed one,
        /// with its line).</summary>
        public static unsafe World LoadSurface(string path, string detailPath = null, UpAxis? up = null, double weld = -1)
        {
            byte[] p = path == null ? null : Utf8(path), d = detailPath == null ? null : Utf8(detailPath);
            uint axis = up.HasValue ? (uint)up.Value : 2u; // PS_UP_FILE
            WorldHandle h;
            fixed (byte* pp = p) fixed (byte* dd = d)
                Native.Check(Native.ps_world_surface_load(pp, dd, axis, weld, out h), "World.LoadSurface");
            return new World(h);
        }

        /// <summary>A surface from Unity's NavMesh.CalculateTriangulation(): vertices x, y, z
        /// each (y up), three indices per triangle, areas (null, or Unity's area index of
        /// each triangle). Unity repeats the vertices of every tile: they are welded within
        /// weld (negative: the library's default, 1e-6 of the mesh's size) and T-junctions
        /// at tile seams split, so the triangles join. Errors: PathsmoothException naming
        /// World.SurfaceFromTriangulation.</summary>
        public static unsafe World SurfaceFromTriangulation(double[] verticesXYZ, uint[] indices, byte[] areas = null, double weld = -1)
        {
            const string what = "World.SurfaceFromTriangulation";
            if (verticesXYZ != null && verticesXYZ.Length % 3 != 0)
                throw Native.Fail(Status.InvalidArgument, what, "verticesXYZ holds " + verticesXYZ.Length + " numbers, not x, y, z per vertex");
            // The native side reads one area per whole triangle.
            if (areas != null && Len(indices) % 3 == 0 && areas.Length != Len(indices) / 3)
                throw Native.Fail(Status.InvalidArgument, what, "areas holds " + areas.Length + " entries, not one per triangle (" + Len(indices) / 3 + ")");
            WorldHandle h;
            fixed (double* v = verticesXYZ) fixed (uint* i = indices) fixed (byte* a = areas)
                Native.Check(Native.ps_world_surface_from_triangulation(v, (UIntPtr)(Len(verticesXYZ) / 3), i, (UIntPtr)Len(indices), a, weld, out h), what);
            return new World(h);
        }

        /// <summary>SurfaceFromTriangulation with the arrays as Unity gives them: the
        /// vertices' Vector3s flattened to floats (x, y, z each; widened to double
        /// exactly), int indices (each ≥ 0) and int area indices (each 0–255).</summary>
        public static World SurfaceFromTriangulation(float[] verticesXYZ, int[] indices, int[] areas = null, double weld = -1)
        {
            double[] v = null;
            if (verticesXYZ != null)
            {
                v = new double[verticesXYZ.Length];
                for (int k = 0; k < v.Length; k++) v[k] = verticesXYZ[k];
            }
            return SurfaceFromTriangulation(v, indices, areas, weld);
        }

        /// <summary>SurfaceFromTriangulation with int indices (each ≥ 0) and int area
        /// indices (each 0–255), as Unity's NavMeshTriangulation holds them, and the
        /// vertices as doubles (x, y, z each).</summary>
        public static World SurfaceFromTriangulation(double[] verticesXYZ, int[] indices, int[] areas = null, double weld = -1)
        {
            const string what = "World.SurfaceFromTriangulation";
            uint[] i = null;
            if (indices != null)
            {
                i = new uint[indices.Length];
                for (int k = 0; k < i.Length; k++)
                {
                    if (indices[k] < 0) throw Native.Fail(Status.InvalidArgument, what, "indices[" + k + "] = " + indices[k] + " is negative");
                    i[k] = (uint)indices[k];
                }
            }
            byte[] a = null;
            if (areas != null)
            {
                a = new byte[areas.Length];
                for (int k = 0; k < a.Length; k++)
                {
                    if (areas[k] < 0 || areas[k] > 255) throw Native.Fail(Status.InvalidArgument, what, "areas[" + k + "] = " + areas[k] + " is not an area index 0–255");
                    a[k] = (byte)areas[k];
                }
            }
            return SurfaceFromTriangulation(verticesXYZ, i, a, weld);
        }

        /// <summary>What building this surface repaired, dropped or noticed in its input,
        /// one line ("welded 77 vertices (within 0.000026…)", or "nothing to repair").</summary>
        public unsafe string LoadReport
        {
            get
            {
                return Native.Text(
                    (byte* b, UIntPtr capacity, out UIntPtr len) => Native.ps_world_surface_load_report(Handle, b, capacity, out len),
                    s => Native.Check(s, "World.LoadReport"));
            }
        }

        /// <summary>How far above or below a floor of this surface a point may be and still
        /// be on it: the bake's agent climb when the file says, else 0.25. Pipelines use it
        /// unless Pipeline.SetClimb says otherwise.</summary>
        public double Climb
        {
            get { double c; Native.Check(Native.ps_world_surface_climb(Handle, out c), "World.Climb"); return c; }
        }

        /// <summary>The file's reference of a polygon of this surface (as Plan3 gives it):
        /// Detour's dtPolyRef for a Detour navmesh, else its index in the input (the
        /// polygons or triangles it was built from; dropped ones leave gaps).</summary>
        public ulong PolygonRef(uint polygon)
        {
            ulong r;
            Native.Check(Native.ps_world_surface_polygon_ref(Handle, polygon, out r), "World.PolygonRef");
            return r;
        }

        /// <summary>Locates each point on this surface (Detour's findNearestPoly): the
        /// polygon it stands over within the Climb of its floor, else the nearest within
        /// RecastDemo's box, into polygons[i], and the point of it at the floor's height
        /// into points[i] (in place: the arrays are overwritten, all or nothing).</summary>
        public unsafe void Locate(Point3d[] points, uint[] polygons)
        {
            if (points == null || polygons == null || polygons.Length != points.Length)
                throw new ArgumentException("points and polygons must be arrays of one length");
            Status s;
            fixed (Point3d* p = points) fixed (uint* o = polygons)
                s = Native.ps_world_surface_locate(Handle, (UIntPtr)points.Length, p, o, p);
            Native.Check(s, "World.Locate");
        }

        /// <summary>Moves each agent on this surface from points[i] (on polygons[i], as
        /// Locate gives them) towards targets[i], held to its floor and sliding along walls
        /// (Detour's moveAlongSurface; give targets the agents' heights, which pick the floor
        /// where a wall cuts the straight way and several floors hold the target): points and
        /// polygons are updated in place, all or nothing.</summary>
        public unsafe void MoveAlong(uint[] polygons, Point3d[] points, Point3d[] targets)
        {
            if (points == null || polygons == null || targets == null || polygons.Length != points.Length || targets.Length != points.Length)
                throw new ArgumentException("polygons, points and targets must be arrays of one length");
            Status s;
            fixed (Point3d* p = points) fixed (uint* o = polygons) fixed (Point3d* t = targets)
                s = Native.ps_world_surface_move_along(Handle, (UIntPtr)points.Length, o, p, t, o, p);
            Native.Check(s, "World.MoveAlong");
        }

        static void CheckLengths(double[] vertices, int dim, uint[] indices, uint[] sizes)
        {
            if (vertices != null && vertices.Length % dim != 0)
                throw new ArgumentException("vertices must hold " + dim + " numbers per vertex");
            if (sizes == null || indices == null) return; // the native side reports NULL
            long total = 0;
            foreach (var s in sizes) total += s;
            if (total > indices.Length)
                throw new ArgumentException("the polygon sizes add up to " + total + " indices, more than the " + indices.Length + " given");
        }

        internal static int Len(Array a) { return a == null ? 0 : a.Length; }
    }

    /// <summary>A world, an agent radius and steps: plans and smooths paths valid on the
    /// world. Use from one thread at a time.</summary>
    public sealed class Pipeline : IDisposable
    {
        readonly PipelineHandle handle;
        double[] buf64 = new double[2 * 256];
        float[] buf32 = new float[2 * 256];

        public Pipeline(World world, double radius, Preset preset = Preset.Smooth)
        {
            if (world == null) throw new ArgumentNullException("world");
            Native.Check(Native.ps_pipeline_new_preset(world.Handle, (uint)preset, radius, out handle));
        }

        public unsafe Pipeline(World world, double radius, Step[] steps)
        {
            if (world == null) throw new ArgumentNullException("world");
            fixed (Step* s = steps)
                Native.Check(Native.ps_pipeline_new_steps(world.Handle, s, (UIntPtr)World.Len(steps), radius, out handle));
        }

        public void Dispose() { handle.Dispose(); }

        /// <summary>Plans from start to goal, then runs the steps: x, y per point.</summary>
        public unsafe double[] Plan(Point2d start, Point2d goal)
        {
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (double* o = buf64)
                    return Native.ps_pipeline_plan_f64(handle, start, goal, o, (UIntPtr)(buf64.Length / 2), out len);
            }, needed => buf64 = new double[2 * needed]);
            return Slice(buf64, (int)(2 * n));
        }

        /// <summary>Plans into the caller's array (x, y per point); returns the number of
        /// points. Throws Status.BufferTooSmall with Needed when it does not fit (the
        /// result is kept: retry with the same input and a larger array).</summary>
        public unsafe int PlanInto(Point2d start, Point2d goal, double[] output)
        {
            UIntPtr len;
            fixed (double* o = output)
                Native.Check(Native.ps_pipeline_plan_f64(handle, start, goal, o, (UIntPtr)(World.Len(output) / 2), out len), (ulong)len);
            return (int)len;
        }

        /// <summary>Plan with float points (valid once rounded to float).</summary>
        public unsafe float[] Plan(Point2f start, Point2f goal)
        {
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (float* o = buf32)
                    return Native.ps_pipeline_plan_f32(handle, start, goal, o, (UIntPtr)(buf32.Length / 2), out len);
            }, needed => buf32 = new float[2 * needed]);
            return Slice(buf32, (int)(2 * n));
        }

        /// <summary>Smooths a path given as x, y per point (pinned, not copied).</summary>
        public unsafe double[] Smooth(double[] path)
        {
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (double* i = path) fixed (double* o = buf64)
                    return Native.ps_pipeline_smooth_f64(handle, i, (UIntPtr)(World.Len(path) / 2), o, (UIntPtr)(buf64.Length / 2), out len);
            }, needed => buf64 = new double[2 * needed]);
            return Slice(buf64, (int)(2 * n));
        }

        /// <summary>Smooths into the caller's array; see PlanInto.</summary>
        public unsafe int SmoothInto(double[] path, double[] output)
        {
            UIntPtr len;
            fixed (double* i = path) fixed (double* o = output)
                Native.Check(Native.ps_pipeline_smooth_f64(handle, i, (UIntPtr)(World.Len(path) / 2), o, (UIntPtr)(World.Len(output) / 2), out len), (ulong)len);
            return (int)len;
        }

        /// <summary>Smooths a path of points (pinned, not copied).</summary>
        public unsafe Point2d[] Smooth(Point2d[] path)
        {
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (Point2d* i = path) fixed (double* o = buf64)
                    return Native.ps_pipeline_smooth_f64(handle, (double*)i, (UIntPtr)World.Len(path), o, (UIntPtr)(buf64.Length / 2), out len);
            }, needed => buf64 = new double[2 * needed]);
            var result = new Point2d[n];
            for (int k = 0; k < (int)n; k++) result[k] = new Point2d(buf64[2 * k], buf64[2 * k + 1]);
            return result;
        }

        /// <summary>Smooths float points (x, y each).</summary>
        public unsafe float[] Smooth(float[] path)
        {
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (float* i = path) fixed (float* o = buf32)
                    return Native.ps_pipeline_smooth_f32(handle, i, (UIntPtr)(World.Len(path) / 2), o, (UIntPtr)(buf32.Length / 2), out len);
            }, needed => buf32 = new float[2 * needed]);
            return Slice(buf32, (int)(2 * n));
        }

        /// <summary>Plans on a surface world: x, y, z per point, and each point's polygon.</summary>
        public unsafe double[] Plan3(Point3d start, Point3d goal, out uint[] polygons)
        {
            var points = new double[3 * 256];
            var polys = new uint[256];
            var n = UntilItFits((out UIntPtr len) =>
            {
                fixed (double* o = points) fixed (uint* p = polys)
                    return Native.ps_pipeline_plan3_f64(handle, start, goal, o, p, (UIntPtr)polys.Length, out len);
            }, needed => { points = new double[3 * needed]; polys = new uint[needed]; });
            polygons = Slice(polys, (int)n);
            return Slice(points, (int)(3 * n));
        }

        /// <summary>On a surface: how far above or below a floor the ends of a plan may be
        /// and still be on it (finite, ≥ 0; until set, the world's Climb). An end over a
        /// polygon within it keeps its plan-view position exactly; one farther off is moved
        /// onto the surface (Report.StartSnapped, GoalSnapped).</summary>
        public void SetClimb(double climb)
        {
            Native.Check(Native.ps_pipeline_set_climb(handle, climb), "Pipeline.SetClimb");
        }

        /// <summary>What the last run did.</summary>
        public Report Report
        {
            get { Report r; Native.Check(Native.ps_pipeline_report(handle, out r)); return r; }
        }

        /// <summary>The steps the last run skipped, each "step: reason".</summary>
        public unsafe string[] Skipped
        {
            get
            {
                var result = new string[(int)(ulong)Report.SkippedCount];
                for (int k = 0; k < result.Length; k++)
                    result[k] = Native.Text(
                        (byte* b, UIntPtr capacity, out UIntPtr len) => Native.ps_pipeline_skipped(handle, (UIntPtr)k, b, capacity, out len),
                        s => Native.Check(s));
                return result;
            }
        }

        /// <summary>A call into the native side that writes into the current buffers and
        /// sets len to the points written, or needed when it returns BufferTooSmall.</summary>
        delegate Status Fill(out UIntPtr len);

        /// <summary>Calls fill until the result fits and returns its number of points: on
        /// BufferTooSmall, grow makes the buffers hold the points needed and fill runs
        /// again, copying out the result the native side kept (not recomputed).</summary>
        static ulong UntilItFits(Fill fill, Action<ulong> grow)
        {
            for (;;)
            {
                UIntPtr len;
                var s = fill(out len);
                var n = (ulong)len;
                if (s == Status.BufferTooSmall) { grow(n); continue; }
                Native.Check(s, n);
                return n;
            }
        }

        static T[] Slice<T>(T[] a, int n)
        {
            var r = new T[n];
            Array.Copy(a, r, n);
            return r;
        }
    }

    /// <summary>Agents walking their smooth paths on one grid or navmesh world whose
    /// obstacles come and go (the library's Crowd): each Update repairs the paths a new
    /// obstacle blocks, plans the new targets and walks every agent speed × dt, avoiding
    /// one another when the settings say so. The crowd owns a copy of the world: obstacles
    /// change the crowd's world only. Use from one thread at a time. Agents are numbered
    /// 0 to Count − 1; RemoveAgent moves the last agent into the removed one's index.
    /// Failures throw PathsmoothException naming the method.</summary>
    public sealed class Crowd : IDisposable
    {
        readonly CrowdHandle handle;
        double[] buf = new double[2 * 64];

        /// <summary>A crowd for agents of radius whose paths a preset smooths; settings
        /// null: DefaultSettings().</summary>
        public unsafe Crowd(World world, double radius, Preset preset = Preset.Smooth, CrowdSettings? settings = null)
        {
            if (world == null) throw new ArgumentNullException("world");
            CrowdSettings s = settings ?? DefaultSettings();
            Native.Check(Native.ps_crowd_new_preset(world.Handle, (uint)preset, radius, &s, out handle), "Crowd");
        }

        /// <summary>A crowd whose paths the given steps smooth.</summary>
        public unsafe Crowd(World world, double radius, Step[] steps, CrowdSettings? settings = null)
        {
            if (world == null) throw new ArgumentNullException("world");
            CrowdSettings s = settings ?? DefaultSettings();
            fixed (Step* st = steps)
                Native.Check(Native.ps_crowd_new_steps(world.Handle, st, (UIntPtr)World.Len(steps), radius, &s, out handle), "Crowd");
        }

        public void Dispose() { handle.Dispose(); }

        /// <summary>The defaults: 1 thread, no plan budget, no avoidance (time horizon 2 s,
        /// 10 neighbours, wall time horizon 1 s, automatic neighbour distance when
        /// Avoidance is set to 1).</summary>
        public static CrowdSettings DefaultSettings()
        {
            CrowdSettings s;
            Native.Check(Native.ps_crowd_settings_default(out s), "Crowd.DefaultSettings");
            return s;
        }

        /// <summary>The defaults with avoidance on.</summary>
        public static CrowdSettings Avoiding()
        {
            var s = DefaultSettings();
            s.Avoidance = 1;
            return s;
        }

        /// <summary>The agents' radius in effect.</summary>
        public double Radius
        {
            get { double r; Native.Check(Native.ps_crowd_radius(handle, out r), "Crowd.Radius"); return r; }
        }

        /// <summary>The number of agents.</summary>
        public int Count
        {
            get { UIntPtr n; Native.Check(Native.ps_crowd_agent_count(handle, out n), "Crowd.Count"); return (int)(ulong)n; }
        }

        /// <summary>Adds an agent at position walking to target at speed (world units per
        /// second), its path planned now; returns its index.</summary>
        public int AddAgent(Point2d position, Point2d target, double speed)
        {
            return Added((out UIntPtr i) => Native.ps_crowd_add_agent(handle, position, target, speed, out i));
        }

        /// <summary>Adds an agent of its own radius (world units): its path keeps that far
        /// off the walls, and avoidance the sum of two radii between agents. At most 16
        /// radii per crowd. Returns its index.</summary>
        public int AddAgent(Point2d position, Point2d target, double speed, double radius)
        {
            return Added((out UIntPtr i) => Native.ps_crowd_add_agent_with_radius(handle, position, target, speed, radius, out i));
        }

        /// <summary>On a crowd made on a surface world: adds an agent at position walking to
        /// target (3D, the surface's axes), located on the surface; across floors over one
        /// another it walks the one-floor sheet round its own path, and agents whose floors are 2 or
        /// more apart never meet. Returns its index.</summary>
        public int AddAgent(Point3d position, Point3d target, double speed)
        {
            return Added((out UIntPtr i) => Native.ps_crowd_add_agent_on_surface(handle, position, target, speed, out i));
        }

        /// <summary>AddAgent in 3D for an agent of its own radius.</summary>
        public int AddAgent(Point3d position, Point3d target, double speed, double radius)
        {
            return Added((out UIntPtr i) => Native.ps_crowd_add_agent_on_surface_with_radius(handle, position, target, speed, radius, out i));
        }

        /// <summary>A call that adds an agent and writes its index.</summary>
        delegate Status AgentCall(out UIntPtr agent);

        /// <summary>The index of the agent a call adds; its errors name Crowd.AddAgent.</summary>
        static int Added(AgentCall add)
        {
            UIntPtr i;
            Native.Check(add(out i), "Crowd.AddAgent");
            return (int)(ulong)i;
        }

        /// <summary>Removes an agent; the last agent takes its index. Returns the index that
        /// agent had (its records now belong to `agent`), or -1 when the removed agent was
        /// the last.</summary>
        public int RemoveAgent(int agent)
        {
            UIntPtr moved;
            Native.Check(Native.ps_crowd_remove_agent(handle, Index(agent, "Crowd.RemoveAgent"), out moved), "Crowd.RemoveAgent");
            ulong m = (ulong)moved;
            return m > int.MaxValue ? -1 : (int)m; // PS_NO_AGENT: none moved
        }

        /// <summary>Asks an agent to walk to target: the next Update plans it. A target the
        /// update refuses (in a wall, unreachable) keeps the old one, and Error says why.</summary>
        public void SetTarget(int agent, Point2d target)
        {
            Native.Check(Native.ps_crowd_set_target(handle, Index(agent, "Crowd.SetTarget"), target), "Crowd.SetTarget");
        }

        /// <summary>On a crowd made on a surface with floors over one another: sends an agent
        /// to target (3D) across the whole surface, planned now; a refused target throws
        /// and keeps the old one.</summary>
        public void SetTarget(int agent, Point3d target)
        {
            Native.Check(Native.ps_crowd_set_target_on_surface(handle, Index(agent, "Crowd.SetTarget"), target), "Crowd.SetTarget");
        }

        /// <summary>Moves every agent dt seconds on; what it did.</summary>
        public CrowdFrame Update(double dt)
        {
            CrowdFrame f;
            Native.Check(Native.ps_crowd_update(handle, dt, out f), "Crowd.Update");
            return f;
        }

        /// <summary>The agents' positions, x, y per agent, by index.</summary>
        public unsafe double[] Positions()
        {
            return PerAgent((double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_positions(handle, o, capacity, out len), "Crowd.Positions");
        }

        /// <summary>On a crowd made on a surface world (with one floor, whose plan view its
        /// agents walk: x, z for y up; or with floors over one another): the agents'
        /// positions in 3D, x, y, z per agent in the surface's axes, each on its floor.</summary>
        public unsafe double[] Positions3()
        {
            return PerAgent((double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_positions3(handle, o, capacity, out len), "Crowd.Positions3", 3);
        }

        /// <summary>The agents' velocities over the last update, x, y per agent.</summary>
        public unsafe double[] Velocities()
        {
            return PerAgent((double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_velocities(handle, o, capacity, out len), "Crowd.Velocities");
        }

        /// <summary>The positions into the caller's array (x, y per agent); returns the
        /// number of agents. Throws Status.BufferTooSmall with Needed when it has room for
        /// fewer points than agents (nothing written).</summary>
        public unsafe int PositionsInto(double[] output)
        {
            return PerAgentInto(output, (double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_positions(handle, o, capacity, out len), "Crowd.PositionsInto");
        }

        /// <summary>The velocities over the last update into the caller's array (x, y per
        /// agent), as PositionsInto: returns the number of agents, or throws
        /// Status.BufferTooSmall with Needed (nothing written).</summary>
        public unsafe int VelocitiesInto(double[] output)
        {
            return PerAgentInto(output, (double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_velocities(handle, o, capacity, out len), "Crowd.VelocitiesInto");
        }

        /// <summary>A per-agent x, y read into the caller's array: its number of agents.</summary>
        unsafe int PerAgentInto(double[] output, Points read, string what)
        {
            UIntPtr len;
            Status s;
            fixed (double* o = output) s = read(o, (UIntPtr)(World.Len(output) / 2), out len);
            if (s != Status.Ok) throw new PathsmoothException(s, what + ": " + Native.WithoutFunction(Native.LastError()), (long)(ulong)len);
            return (int)(ulong)len;
        }

        /// <summary>An agent's state: position, target, velocity, speed, path length, flags.</summary>
        public AgentState State(int agent)
        {
            AgentState st;
            Native.Check(Native.ps_crowd_agent_state(handle, Index(agent, "Crowd.State"), out st), "Crowd.State");
            return st;
        }

        /// <summary>True when the agent stands at its target.</summary>
        public bool Arrived(int agent) { return State(agent).Arrived != 0; }

        /// <summary>True when the agent's new target waits to be planned.</summary>
        public bool Waiting(int agent) { return State(agent).Waiting != 0; }

        /// <summary>An agent's path from its position to its target, x, y per point (its
        /// position alone while stuck).</summary>
        public unsafe double[] Path(int agent)
        {
            var i = Index(agent, "Crowd.Path");
            return PerAgent((double* o, UIntPtr capacity, out UIntPtr len) => Native.ps_crowd_agent_path(handle, i, o, capacity, out len), "Crowd.Path");
        }

        /// <summary>The last error an update met for the agent (a refused target, a failed
        /// move), or null.</summary>
        public unsafe string Error(int agent)
        {
            return AgentText(agent, Native.ps_crowd_agent_error, "Crowd.Error");
        }

        /// <summary>Why the agent is stuck, or null.</summary>
        public unsafe string Stuck(int agent)
        {
            return AgentText(agent, Native.ps_crowd_agent_stuck, "Crowd.Stuck");
        }

        /// <summary>A native call that writes a text of one agent, as Native.TextCall.</summary>
        unsafe delegate Status AgentTextCall(CrowdHandle crowd, UIntPtr agent, byte* buf, UIntPtr capacity, out UIntPtr len);

        /// <summary>The text a call writes for an agent, or null when it is empty; errors
        /// name the C# method `what`.</summary>
        unsafe string AgentText(int agent, AgentTextCall call, string what)
        {
            var i = Index(agent, what);
            var text = Native.Text(
                (byte* b, UIntPtr capacity, out UIntPtr len) => call(handle, i, b, capacity, out len),
                s => Native.Check(s, what));
            return text.Length == 0 ? null : text;
        }

        /// <summary>Adds a box obstacle (min &lt; max); its id, and in blocked how many
        /// agents' paths it blocks (the next Update repairs them). An agent it lands on is
        /// pushed out to the nearest point with room it could slide to without crossing a
        /// wall.</summary>
        public ulong AddBox(Point2d min, Point2d max, out int blocked)
        {
            return Added((out ulong id, out UIntPtr b) => Native.ps_crowd_add_box(handle, min, max, out id, out b), "Crowd.AddBox", out blocked);
        }

        /// <summary>Adds a disc obstacle; see AddBox.</summary>
        public ulong AddDisk(Point2d center, double radius, out int blocked)
        {
            return Added((out ulong id, out UIntPtr b) => Native.ps_crowd_add_disk(handle, center, radius, out id, out b), "Crowd.AddDisk", out blocked);
        }

        /// <summary>Adds a box obstacle on the floor under `floor` (3D, inside the box in
        /// plan view) of a crowd made on a surface: a door on the ground floor under a
        /// bridge. AddBox there takes the one floor under the box.</summary>
        public ulong AddBox(Point2d min, Point2d max, Point3d floor, out int blocked)
        {
            return Added((out ulong id, out UIntPtr b) => Native.ps_crowd_add_box_on_floor(handle, min, max, floor, out id, out b), "Crowd.AddBox", out blocked);
        }

        /// <summary>Adds a disc obstacle on the floor under `floor`; see AddBox.</summary>
        public ulong AddDisk(Point2d center, double radius, Point3d floor, out int blocked)
        {
            return Added((out ulong id, out UIntPtr b) => Native.ps_crowd_add_disk_on_floor(handle, center, radius, floor, out id, out b), "Crowd.AddDisk", out blocked);
        }

        /// <summary>Adds a convex polygon obstacle (x, y per vertex); see AddBox.</summary>
        public unsafe ulong AddPolygon(double[] verticesXY, out int blocked)
        {
            var n = Pairs(verticesXY, "Crowd.AddPolygon", "verticesXY", "x, y per vertex");
            return Added((out ulong id, out UIntPtr b) =>
            {
                fixed (double* v = verticesXY) return Native.ps_crowd_add_polygon(handle, v, n, out id, out b);
            }, "Crowd.AddPolygon", out blocked);
        }

        /// <summary>Adds a convex polygon obstacle (x, y per vertex) on the floor under
        /// `floor`; see AddBox.</summary>
        public unsafe ulong AddPolygon(double[] verticesXY, Point3d floor, out int blocked)
        {
            var n = Pairs(verticesXY, "Crowd.AddPolygon", "verticesXY", "x, y per vertex");
            return Added((out ulong id, out UIntPtr b) =>
            {
                fixed (double* v = verticesXY) return Native.ps_crowd_add_polygon_on_floor(handle, v, n, floor, out id, out b);
            }, "Crowd.AddPolygon", out blocked);
        }

        /// <summary>Blocks grid cells (column, row per cell); a navmesh crowd refuses it.</summary>
        public unsafe ulong AddCells(int[] cellsXY, out int blocked)
        {
            var n = Pairs(cellsXY, "Crowd.AddCells", "cellsXY", "column, row per cell");
            return Added((out ulong id, out UIntPtr b) =>
            {
                fixed (int* c = cellsXY) return Native.ps_crowd_add_cells(handle, c, n, out id, out b);
            }, "Crowd.AddCells", out blocked);
        }

        /// <summary>A call that adds an obstacle: its id, and how many agents' paths it
        /// blocks.</summary>
        delegate Status ObstacleCall(out ulong id, out UIntPtr blocked);

        /// <summary>The id of the obstacle a call adds (its errors naming the C# method
        /// `what`), and in blocked how many agents' paths it blocks.</summary>
        static ulong Added(ObstacleCall add, string what, out int blocked)
        {
            ulong id; UIntPtr b;
            Native.Check(add(out id, out b), what);
            blocked = (int)(ulong)b;
            return id;
        }

        /// <summary>The number of pairs in `flat` (null: none), for the method `what`; an
        /// odd length is refused here, naming the array `name` and what its pairs are.</summary>
        static UIntPtr Pairs(Array flat, string what, string name, string pairs)
        {
            if (flat != null && flat.Length % 2 != 0)
                throw Native.Fail(Status.InvalidArgument, what, name + " holds " + flat.Length + " numbers, not " + pairs);
            return (UIntPtr)(World.Len(flat) / 2);
        }

        /// <summary>Removes an obstacle (by the id an Add* returned).</summary>
        public void RemoveObstacle(ulong id)
        {
            Native.Check(Native.ps_crowd_remove_obstacle(handle, id), "Crowd.RemoveObstacle");
        }

        /// <summary>Adds a moving obstacle: a disc moved by velocity × dt every update;
        /// avoiding agents keep clear of it; while its velocity is zero it blocks like an
        /// obstacle. Its id.</summary>
        public ulong AddMovingObstacle(Point2d center, double radius, Point2d velocity)
        {
            ulong id;
            Native.Check(Native.ps_crowd_add_moving_obstacle(handle, center, radius, velocity, out id), "Crowd.AddMovingObstacle");
            return id;
        }

        /// <summary>Sets a moving obstacle's velocity (zero stops it: it then blocks like an
        /// obstacle).</summary>
        public void SetMovingObstacleVelocity(ulong id, Point2d velocity)
        {
            Native.Check(Native.ps_crowd_set_moving_obstacle_velocity(handle, id, velocity), "Crowd.SetMovingObstacleVelocity");
        }

        /// <summary>Drives a moving obstacle along a route (x, y per point) at `speed`: each
        /// point in turn, round again when `looped`, else it stops at the last and stands.
        /// A new velocity ends the route.</summary>
        public unsafe void DriveMovingObstacle(ulong id, double[] routeXY, double speed, bool looped)
        {
            Status s;
            fixed (double* r = routeXY) s = Native.ps_crowd_drive_moving_obstacle(handle, id, r, (UIntPtr)(World.Len(routeXY) / 2), speed, looped ? 1u : 0u);
            Native.Check(s, "Crowd.DriveMovingObstacle");
        }

        /// <summary>On a crowd across floors: puts a moving obstacle on the floor at height
        /// `floor` (only that floor's agents avoid it; stopped, it stands there).</summary>
        public void SetMovingObstacleFloor(ulong id, double floor)
        {
            Native.Check(Native.ps_crowd_set_moving_obstacle_floor(handle, id, floor), "Crowd.SetMovingObstacleFloor");
        }

        /// <summary>Removes a moving obstacle.</summary>
        public void RemoveMovingObstacle(ulong id)
        {
            Native.Check(Native.ps_crowd_remove_moving_obstacle(handle, id), "Crowd.RemoveMovingObstacle");
        }

        /// <summary>The moving obstacles, in the order added.</summary>
        public unsafe MovingObstacle[] MovingObstacles()
        {
            var rows = new MovingObstacle[4];
            for (;;)
            {
                UIntPtr len;
                Status s;
                fixed (MovingObstacle* o = rows) s = Native.ps_crowd_moving_obstacles(handle, o, (UIntPtr)rows.Length, out len);
                int n = (int)(ulong)len;
                if (s == Status.BufferTooSmall) { rows = new MovingObstacle[n]; continue; }
                Native.Check(s, "Crowd.MovingObstacles");
                var result = new MovingObstacle[n];
                Array.Copy(rows, result, n);
                return result;
            }
        }

        /// <summary>An agent index for the native side; a negative one is refused here.</summary>
        static UIntPtr Index(int agent, string what)
        {
            if (agent < 0) throw Native.Fail(Status.InvalidArgument, what, "`agent` = " + agent + " is out of range (negative)");
            return (UIntPtr)(uint)agent;
        }

        unsafe delegate Status Points(double* output, UIntPtr capacity, out UIntPtr len);

        /// <summary>Points a call writes into the crowd's buffer (grown on BufferTooSmall),
        /// copied out: x, y per point.</summary>
        unsafe double[] PerAgent(Points call, string what, int dim = 2)
        {
            for (;;)
            {
                UIntPtr len;
                Status s;
                fixed (double* o = buf) s = call(o, (UIntPtr)(buf.Length / dim), out len);
                int n = (int)(ulong)len;
                if (s == Status.BufferTooSmall) { buf = new double[dim * n]; continue; }
                Native.Check(s, what);
                var result = new double[dim * n];
                Array.Copy(buf, result, dim * n);
                return result;
            }
        }
    }
}
