/* pathsmooth from C: a game's own occupancy grid (0.5 m cells), an agent of radius 0.4 m,
 * a smooth path from one side of a wall to the other.
 *
 *   cargo build -p pathsmooth-ffi
 *   gcc -I crates/pathsmooth-ffi/include crates/pathsmooth-ffi/examples/c/quickstart.c \
 *       -L target/debug -lpathsmooth_ffi -Wl,-rpath,target/debug -o quickstart && ./quickstart
 */
#include <stdio.h>
#include <stdlib.h>

#include "pathsmooth.h"

int main(void) {
    const char *rows[] = {"............", "............", "............", "....####....",
                          "....####....", "............", "............", "............"};
    uint8_t free_cells[8 * 12]; /* row-major, row 0 first: cell (x, y) is free_cells[y * 12 + x] */
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 12; x++) free_cells[y * 12 + x] = rows[y][x] == '.';

    PsWorld *world = NULL;
    PsPipeline *pipeline = NULL;
    char message[256];
    if (ps_world_grid_new(free_cells, 12, 8, 0.5, 0.0, 0.0, &world) != PS_OK ||
        ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, 0.4, &pipeline) != PS_OK) {
        ps_last_error(message, sizeof message);
        fprintf(stderr, "pathsmooth: %s\n", message);
        return 1;
    }

    /* Ask for the length first (a NULL buffer of capacity 0), then fetch the kept result. */
    PsPoint2d start = {0.75, 2.25}, goal = {5.25, 1.75};
    size_t n = 0;
    PsStatus status = ps_pipeline_plan_f64(pipeline, start, goal, NULL, 0, &n);
    double *points = NULL;
    if (status == PS_BUFFER_TOO_SMALL) {
        points = malloc(sizeof(double) * 2 * n);
        status = ps_pipeline_plan_f64(pipeline, start, goal, points, n, &n);
    }
    if (status != PS_OK) {
        ps_last_error(message, sizeof message);
        fprintf(stderr, "pathsmooth: %s: %s\n", ps_status_name(status), message);
        return 1;
    }
    PsReport report;
    ps_pipeline_report(pipeline, &report);
    printf("%zu points, length %.3f m, clearance %.3f m\n", n, report.length, report.min_clearance);
    for (size_t i = 0; i < n; i++) printf("%.4f %.4f\n", points[2 * i], points[2 * i + 1]);

    free(points);
    ps_pipeline_destroy(pipeline);
    ps_world_destroy(world);
    return 0;
}
