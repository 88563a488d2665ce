/* The C test of pathsmooth's C ABI, built with gcc and run by tests/programs.rs (also
 * under valgrind there).
 *
 *   test_ffi MAP sx sy gx gy [sx sy gx gy ...]
 *
 * Loads the Moving AI map MAP (parsed here: `.`, `G` and `S` passable, as the library's
 * GridMap says), makes a grid world (cell size 1, origin 0, row 0 first), and for each
 * start/goal pair prints, as the bits of each double in hex:
 *   shortest i n bits...   the Shortest preset's plan at radius 0.3
 *   smooth i n bits...     that path smoothed by the Smooth preset at radius 0.3
 *   plan i n bits...       the Smooth preset's plan at radius 0.3
 * and then the plan on a navmesh file (see surface_file), which the Rust test compares with
 * the library's own results. Then it tries bad input
 * (NULL, NaN, misaligned, too small buffers, wrong handles) and checks each status and
 * message. Exit status 0 when every check passed. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pathsmooth.h"

/* The Moving AI map at `path` as one byte per cell (1 passable), row 0 first. */
static uint8_t *load_map(const char *path, size_t *width, size_t *height) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    char line[1 << 15];
    if (!fgets(line, sizeof line, f) || strncmp(line, "type octile", 11) != 0 ||
        fscanf(f, "height %zu\n", height) != 1 || fscanf(f, "width %zu\n", width) != 1 ||
        !fgets(line, sizeof line, f) || strncmp(line, "map", 3) != 0) {
        fprintf(stderr, "%s: not a Moving AI octile map\n", path);
        fclose(f);
        return NULL;
    }
    uint8_t *cells = malloc(*width * *height);
    for (size_t y = 0; y < *height; y++) {
        if (!fgets(line, sizeof line, f) || strlen(line) < *width) {
            fprintf(stderr, "%s: row %zu is short\n", path, y);
            free(cells);
            fclose(f);
            return NULL;
        }
        for (size_t x = 0; x < *width; x++) {
            char c = line[x];
            cells[y * *width + x] = c == '.' || c == 'G' || c == 'S';
        }
    }
    fclose(f);
    return cells;
}

static void print_points(const char *label, int i, const double *points, size_t n, size_t dim) {
    printf("%s %d %zu", label, i, n);
    for (size_t k = 0; k < dim * n; k++) {
        uint64_t bits;
        memcpy(&bits, &points[k], sizeof bits);
        printf(" %016" PRIx64, bits);
    }
    printf("\n");
}

static void print_path(const char *label, int i, const double *points, size_t n) {
    print_points(label, i, points, n, 2);
}

enum { CAP = 1 << 14 };

static void bad_input(PsWorld *world, PsPipeline *pipeline) {
    static double out[2 * 64];
    size_t len = 7;
    PsPoint2d a = {1.5, 11.5}, b = {1.5, 12.5}, nan_point = {NAN, 1.5};

    /* NULL handle, NULL out_len, NULL buffer with room. */
    CHECK(ps_pipeline_plan_f64(NULL, a, b, out, 64, &len) == PS_NULL_POINTER && len == 0,
          "NULL pipeline");
    CHECK(strstr(last_error(), "`pipeline` is NULL") != NULL, "NULL pipeline message");
    CHECK(ps_pipeline_plan_f64(pipeline, a, b, out, 64, NULL) == PS_NULL_POINTER, "NULL out_len");
    CHECK(ps_pipeline_plan_f64(pipeline, a, b, NULL, 64, &len) == PS_NULL_POINTER,
          "NULL out_points with capacity");

    /* A world where a pipeline belongs. */
    CHECK(ps_pipeline_plan_f64((PsPipeline *)world, a, b, out, 64, &len) == PS_WRONG_HANDLE,
          "world as pipeline");
    CHECK(strstr(last_error(), "is a PsWorld, expected PsPipeline") != NULL, "wrong handle message");
    CHECK(ps_pipeline_destroy((PsPipeline *)world) == PS_WRONG_HANDLE, "destroy world as pipeline");

    /* NaN, zero length, misaligned. */
    CHECK(ps_pipeline_plan_f64(pipeline, nan_point, b, out, 64, &len) == PS_INVALID_ARGUMENT,
          "NaN start");
    CHECK(strstr(last_error(), "NaN") != NULL, "NaN message");
    CHECK(ps_pipeline_smooth_f64(pipeline, out, 0, out, 64, &len) == PS_INVALID_ARGUMENT,
          "empty path");
    CHECK(strstr(last_error(), "empty") != NULL, "empty message");
    double *odd = (double *)((char *)out + 1);
    CHECK(ps_pipeline_plan_f64(pipeline, a, b, odd, 8, &len) == PS_MISALIGNED, "misaligned out");
    CHECK(strstr(last_error(), "not aligned") != NULL, "misaligned message");

    /* A start in a wall (cell (0, 0) of the arena is a wall), and one outside. */
    PsPoint2d wall = {0.5, 0.5}, outside = {-5.0, 1.5};
    CHECK(ps_pipeline_plan_f64(pipeline, wall, b, out, 64, &len) == PS_OUTSIDE_WORLD, "start in a wall");
    CHECK(ps_pipeline_plan_f64(pipeline, outside, b, out, 64, &len) == PS_OUTSIDE_WORLD, "start outside");

    /* Too small: the needed length, then a retry gets the kept result. */
    PsPoint2d far_goal = {46.5, 40.5};
    CHECK(ps_pipeline_plan_f64(pipeline, a, far_goal, NULL, 0, &len) == PS_BUFFER_TOO_SMALL && len > 1,
          "size query");
    size_t needed = len;
    CHECK(strstr(last_error(), "are needed") != NULL, "too small message");
    CHECK(ps_pipeline_plan_f64(pipeline, a, far_goal, out, 64, &len) == PS_OK && len == needed,
          "retry with room");

    /* f32 works and a good call clears the message. */
    float out32[2 * 64];
    PsPoint2f a32 = {1.5f, 11.5f}, b32 = {1.5f, 12.5f};
    CHECK(ps_pipeline_plan_f32(pipeline, a32, b32, out32, 64, &len) == PS_OK && len >= 2, "f32 plan");
    CHECK(last_error()[0] == '\0', "message cleared after PS_OK");

    /* Bad constructors leave NULL. */
    PsWorld *w = (PsWorld *)1;
    uint8_t cells[4] = {0, 0, 0, 0};
    CHECK(ps_world_grid_new(cells, 2, 2, 1.0, 0.0, 0.0, &w) == PS_INVALID_ARGUMENT && w == NULL,
          "no free cell");
    CHECK(ps_world_grid_new(cells, 0, 2, 1.0, 0.0, 0.0, &w) == PS_INVALID_ARGUMENT, "zero width");
    CHECK(ps_world_grid_new(NULL, 2, 2, 1.0, 0.0, 0.0, &w) == PS_NULL_POINTER, "NULL cells");
    PsPipeline *p = NULL;
    CHECK(ps_pipeline_new_preset(world, 9, 0.3, &p) == PS_INVALID_ARGUMENT && p == NULL, "bad preset");
    CHECK(ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, NAN, &p) == PS_INVALID_ARGUMENT, "NaN radius");
    CHECK(ps_pipeline_new_preset((PsWorld *)pipeline, PS_PRESET_SMOOTH, 0.3, &p) == PS_WRONG_HANDLE,
          "pipeline as world");
    CHECK(ps_world_destroy(NULL) == PS_OK && ps_pipeline_destroy(NULL) == PS_OK, "destroy NULL");
}

/* Area costs: a swamp block (cost 4) the straight line would cross; the smoothed plan
 * goes round it and costs no more than the planner's path; bad costs are refused. */
static void area_costs(void) {
    const char *rows[] = {"..........", "..SSSSSS..", "..SSSSSS..", "..SSSSSS..", ".........."};
    uint8_t free_cells[50], areas[50];
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 10; x++) {
            free_cells[y * 10 + x] = 1;
            areas[y * 10 + x] = (uint8_t)rows[y][x];
        }
    PsWorld *world = NULL;
    CHECK(ps_world_grid_new_areas(free_cells, areas, 10, 5, 1.0, 0.0, 0.0, "S=4", &world) == PS_OK,
          "grid with areas: %s", last_error());
    PsPipeline *p = NULL;
    CHECK(ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, 0.0, &p) == PS_OK, "smooth on areas");
    double out[2 * 256];
    size_t n = 0;
    PsPoint2d start = {0.5, 2.5}, goal = {9.5, 2.5};
    CHECK(ps_pipeline_plan_f64(p, start, goal, out, 256, &n) == PS_OK, "plan: %s", last_error());
    PsReport report;
    CHECK(ps_pipeline_report(p, &report) == PS_OK, "report");
    CHECK(report.cost <= report.input_cost * (1 + 1e-9) && report.cost < 12.0,
          "cost %g of input %g (straight through would be 27)", report.cost, report.input_cost);
    PsWorld *bad = NULL;
    CHECK(ps_world_grid_new_areas(free_cells, areas, 10, 5, 1.0, 0.0, 0.0, "S=0", &bad) ==
                  PS_INVALID_ARGUMENT &&
              bad == NULL && strstr(last_error(), "area cost for S") != NULL,
          "S=0 refused: %s", last_error());
    CHECK(ps_world_grid_new_areas(free_cells, areas, 10, 5, 1.0, 0.0, 0.0, ".=exclude,S=exclude",
                                  &bad) == PS_INVALID_ARGUMENT,
          "everything excluded: %s", last_error());
    CHECK(ps_pipeline_destroy(p) == PS_OK && ps_world_destroy(world) == PS_OK, "destroy");

    /* The same on a navmesh: 5 × 3 unit squares, the middle one area 2 at cost 4. */
    double xy[2 * 24];
    uint32_t idx[4 * 15], sizes[15];
    uint8_t square_areas[15];
    for (int v = 0; v < 24; v++) {
        xy[2 * v] = v % 6;
        xy[2 * v + 1] = v / 6;
    }
    for (int q = 0; q < 15; q++) {
        uint32_t v = (uint32_t)((q / 5) * 6 + q % 5);
        uint32_t ring[4] = {v, v + 1, v + 7, v + 6};
        memcpy(idx + 4 * q, ring, sizeof ring);
        sizes[q] = 4;
        square_areas[q] = q == 7 ? 2 : 63;
    }
    PsWorld *mesh = NULL;
    CHECK(ps_world_navmesh_new_areas(xy, 24, idx, sizes, 15, NULL, square_areas, "2=4", &mesh) ==
              PS_OK,
          "navmesh with areas: %s", last_error());
    CHECK(ps_pipeline_new_preset(mesh, PS_PRESET_SMOOTH, 0.0, &p) == PS_OK, "smooth on the mesh");
    PsPoint2d ms = {0.5, 1.5}, mg = {4.5, 1.5};
    CHECK(ps_pipeline_plan_f64(p, ms, mg, out, 256, &n) == PS_OK, "mesh plan: %s", last_error());
    CHECK(ps_pipeline_report(p, &report) == PS_OK && report.cost < 7.0 &&
              report.cost <= report.input_cost * (1 + 1e-9),
          "mesh cost %g (through the swamp square: 7)", report.cost);
    CHECK(ps_world_navmesh_new_areas(xy, 24, idx, sizes, 15, NULL, square_areas, "2=-1", &bad) ==
              PS_INVALID_ARGUMENT,
          "negative cost refused: %s", last_error());
    CHECK(ps_pipeline_destroy(p) == PS_OK && ps_world_destroy(mesh) == PS_OK, "destroy mesh");
}

/* A navmesh file loaded as a surface world: the file PS_TEST_SURFACE_FILE (a Godot scene
 * of the library's corpus, y up) and two points on its floors, PS_TEST_SURFACE_ENDS
 * ("sx sy sz gx gy gz"), both set by tests/programs.rs. Prints the Smooth preset's plan at
 * radius 0.1 between them as "surface 0 n bits..." (x, y, z per point) for the Rust test
 * to compare; checks that the start, which is on the surface, keeps its plan-view
 * position (x, z) exactly, the load report and the climb; then a missing file. */
static void surface_file(void) {
    const char *file = getenv("PS_TEST_SURFACE_FILE"), *ends = getenv("PS_TEST_SURFACE_ENDS");
    PsPoint3d s, g;
    CHECK(file && ends && sscanf(ends, "%lf %lf %lf %lf %lf %lf", &s.x, &s.y, &s.z, &g.x, &g.y, &g.z) == 6,
          "PS_TEST_SURFACE_FILE and PS_TEST_SURFACE_ENDS are set");
    if (!file || !ends) return;
    PsWorld *world = NULL;
    PsStatus st = ps_world_surface_load(file, NULL, PS_UP_FILE, -1.0, &world);
    CHECK(st == PS_OK && world != NULL, "load %s: %s", file, ps_status_name(st));
    if (!world) return;
    char report[512];
    size_t len = 0;
    CHECK(ps_world_surface_load_report(world, report, sizeof report, &len) == PS_OK && len > 0 &&
              len < sizeof report && strlen(report) == len,
          "load report");
    CHECK(strstr(report, "welded") != NULL, "the scene's duplicated vertices welded: %s", report);
    CHECK(ps_world_surface_load_report(world, NULL, 0, &len) == PS_OK && len == strlen(report),
          "load report length");
    double climb = 0.0;
    CHECK(ps_world_surface_climb(world, &climb) == PS_OK && climb > 0.0, "climb %g", climb);

    PsPipeline *p = NULL;
    CHECK(ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, 0.1, &p) == PS_OK, "surface pipeline");
    static double out[3 * 1024];
    static uint32_t polygons[1024];
    size_t n = 0;
    st = ps_pipeline_plan3_f64(p, s, g, out, polygons, 1024, &n);
    CHECK(st == PS_OK && n >= 2, "surface plan: %s", ps_status_name(st));
    print_points("surface", 0, out, n, 3);
    CHECK(n >= 2 && out[0] == s.x && out[2] == s.z, "the start kept in plan view: (%.17g, %.17g)",
          out[0], out[2]);
    PsReport r;
    CHECK(ps_pipeline_report(p, &r) == PS_OK && r.start_snapped == 0.0 && r.goal_snapped == 0.0 &&
              r.plan_length > 0.0 && r.length >= r.plan_length,
          "surface report: length %g, plan length %g, snapped %g %g", r.length, r.plan_length,
          r.start_snapped, r.goal_snapped);
    CHECK(ps_pipeline_set_climb(p, -1.0) == PS_INVALID_ARGUMENT &&
              strstr(last_error(), "ps_pipeline_set_climb: ") == last_error(),
          "negative climb");
    CHECK(ps_pipeline_set_climb(p, climb) == PS_OK, "climb set");
    CHECK(ps_pipeline_destroy(p) == PS_OK && ps_world_destroy(world) == PS_OK, "destroy surface");

    /* A missing file: PS_IO_ERROR, the message naming the call and the file, NULL out. */
    PsWorld *missing = (PsWorld *)&n;
    CHECK(ps_world_surface_load("no/such/navmesh.tscn", NULL, PS_UP_FILE, -1.0, &missing) ==
                  PS_IO_ERROR &&
              missing == NULL,
          "missing file");
    CHECK(strstr(last_error(), "ps_world_surface_load: no/such/navmesh.tscn: ") == last_error(),
          "missing file message");
    CHECK(ps_world_surface_load(NULL, NULL, PS_UP_FILE, -1.0, &missing) == PS_NULL_POINTER,
          "NULL path");
}

int main(int argc, char **argv) {
    if (argc < 2 || (argc - 2) % 4 != 0) {
        fprintf(stderr, "usage: %s MAP [sx sy gx gy]...\n", argv[0]);
        return 2;
    }
    size_t width, height;
    uint8_t *cells = load_map(argv[1], &width, &height);
    if (!cells) return 2;

    PsWorld *world = NULL;
    PsPipeline *shortest = NULL, *smooth = NULL;
    CHECK(ps_world_grid_new(cells, width, height, 1.0, 0.0, 0.0, &world) == PS_OK, "grid world");
    free(cells);
    CHECK(ps_pipeline_new_preset(world, PS_PRESET_SHORTEST, 0.3, &shortest) == PS_OK, "shortest");
    CHECK(ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, 0.3, &smooth) == PS_OK, "smooth");
    if (!world || !shortest || !smooth) return 1;

    double *a = malloc(sizeof(double) * 2 * CAP), *b = malloc(sizeof(double) * 2 * CAP);
    for (int i = 0; 2 + 4 * i < argc; i++) {
        PsPoint2d start = {strtod(argv[2 + 4 * i], NULL), strtod(argv[3 + 4 * i], NULL)};
        PsPoint2d goal = {strtod(argv[4 + 4 * i], NULL), strtod(argv[5 + 4 * i], NULL)};
        size_t n = 0, m = 0;
        PsStatus s = ps_pipeline_plan_f64(shortest, start, goal, a, CAP, &n);
        CHECK(s == PS_OK, "scenario %d: shortest plan: %s", i, ps_status_name(s));
        print_path("shortest", i, a, n);
        s = ps_pipeline_smooth_f64(smooth, a, n, b, CAP, &m);
        CHECK(s == PS_OK, "scenario %d: smooth: %s", i, ps_status_name(s));
        print_path("smooth", i, b, m);
        PsReport report;
        CHECK(ps_pipeline_report(smooth, &report) == PS_OK && report.min_clearance >= 0.3,
              "scenario %d: clearance %g", i, report.min_clearance);
        s = ps_pipeline_plan_f64(smooth, start, goal, b, CAP, &m);
        CHECK(s == PS_OK, "scenario %d: smooth plan: %s", i, ps_status_name(s));
        print_path("plan", i, b, m);
    }
    free(a);
    free(b);

    bad_input(world, smooth);
    area_costs();
    surface_file();

    /* The pipelines keep the world alive: destroy it first. */
    CHECK(ps_world_destroy(world) == PS_OK, "destroy world");
    size_t len;
    double out[2 * 64];
    PsPoint2d s0 = {1.5, 11.5}, g0 = {1.5, 12.5};
    CHECK(ps_pipeline_plan_f64(smooth, s0, g0, out, 64, &len) == PS_OK, "plan after the world's destroy");
    CHECK(ps_pipeline_destroy(shortest) == PS_OK && ps_pipeline_destroy(smooth) == PS_OK, "destroy");

    return finish_checks("c test");
}
