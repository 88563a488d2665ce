/* The C test of the crowd in pathsmooth's C ABI (ps_crowd_*), built with gcc and run by
 * tests/programs.rs (also under valgrind there). No arguments.
 *
 * Six agents in head-on pairs cross an open 24 x 12 room while a disc (a moving obstacle,
 * radius 1) drives across their way; the agents avoid (ORCA). Every frame this program
 * reads the positions into its own buffer and checks, itself, that no two agents come
 * within 0.99 x 2r and no agent within 0.99 x (r + R) of the disc, whose centre it follows
 * itself; at the end every agent stands at its goal. Then it removes an agent (the last
 * takes its index), drops and removes a box, walks an agent on a navmesh crowd, and tries
 * bad input (NULL, NaN, too small buffers, unknown ids, agents out of range), checking
 * each status and message. Prints one summary line; exit status 0 when every check
 * passed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pathsmooth.h"

#define N 6
#define RADIUS 0.3
#define TRUCK_RADIUS 1.0
#define DT (1.0 / 30.0)
#define FRAMES (30 * 30)

static PsPoint2d pt(double x, double y) {
    PsPoint2d p = {x, y};
    return p;
}

static double dist(double ax, double ay, double bx, double by) {
    return hypot(ax - bx, ay - by);
}

static size_t agent_count(const PsCrowd *crowd) {
    size_t n = 0;
    EXPECT(ps_crowd_agent_count(crowd, &n), PS_OK, "");
    return n;
}

/* The walk of the six agents and the disc. */
static void avoiding_walk(void) {
    uint8_t free_cells[24 * 12];
    memset(free_cells, 1, sizeof free_cells);
    PsWorld *world = NULL;
    EXPECT(ps_world_grid_new(free_cells, 24, 12, 1.0, 0.0, 0.0, &world), PS_OK, "");

    PsCrowdSettings settings;
    EXPECT(ps_crowd_settings_default(&settings), PS_OK, "");
    CHECK(settings.threads == 1 && settings.avoidance == 0 && settings.time_horizon == 2.0,
          "default settings");
    settings.avoidance = 1;
    PsCrowd *crowd = NULL;
    EXPECT(ps_crowd_new_preset(world, PS_PRESET_SMOOTH, RADIUS, &settings, &crowd), PS_OK, "");
    /* The crowd has its own copy of the world. */
    EXPECT(ps_world_destroy(world), PS_OK, "");
    if (!crowd) return;

    const double starts[N][2] = {{1.5, 3.5}, {22.5, 3.5}, {1.5, 6.5},
                                 {22.5, 6.5}, {1.5, 9.5}, {22.5, 9.5}};
    for (size_t i = 0; i < N; i++) {
        size_t index = PS_NO_AGENT;
        /* Pairs head-on: agent 2k walks to agent 2k+1's start and back. */
        const double *goal = starts[i ^ 1];
        EXPECT(ps_crowd_add_agent(crowd, pt(starts[i][0], starts[i][1]), pt(goal[0], goal[1]),
                                  1.5, &index),
               PS_OK, "");
        CHECK(index == i, "agent %zu got index %zu", i, index);
    }

    double truck[2] = {12.0, -1.5};
    const double velocity[2] = {0.0, 1.2};
    uint64_t truck_id = PS_NO_OBSTACLE;
    EXPECT(ps_crowd_add_moving_obstacle(crowd, pt(truck[0], truck[1]), TRUCK_RADIUS,
                                        pt(velocity[0], velocity[1]), &truck_id),
           PS_OK, "");

    /* One spare point past the agents: a canary that no call may touch. */
    double xy[2 * (N + 1)], v[2 * N];
    xy[2 * N] = xy[2 * N + 1] = -12345.0;
    double nearest_pair = INFINITY, nearest_truck = INFINITY;
    int arrived_frame = -1;
    for (int frame = 0; frame < FRAMES; frame++) {
        PsCrowdFrame f;
        EXPECT(ps_crowd_update(crowd, DT, &f), PS_OK, "");
        CHECK(f.failed == 0 && f.stuck == 0, "frame %d: %zu failed, %zu stuck", frame, f.failed,
              f.stuck);
        truck[0] += velocity[0] * DT;
        truck[1] += velocity[1] * DT;
        size_t len = 0;
        EXPECT(ps_crowd_positions(crowd, xy, N, &len), PS_OK, "");
        CHECK(len == N, "positions: %zu", len);
        EXPECT(ps_crowd_velocities(crowd, v, N, &len), PS_OK, "");
        for (size_t i = 0; i < N; i++) {
            CHECK(isfinite(xy[2 * i]) && isfinite(xy[2 * i + 1]) && isfinite(v[2 * i]) &&
                      isfinite(v[2 * i + 1]),
                  "frame %d: agent %zu not finite", frame, i);
            double dt = dist(xy[2 * i], xy[2 * i + 1], truck[0], truck[1]);
            if (dt < nearest_truck) nearest_truck = dt;
            for (size_t j = i + 1; j < N; j++) {
                double d = dist(xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]);
                if (d < nearest_pair) nearest_pair = d;
            }
        }
        int all = 1;
        for (size_t i = 0; i < N; i++) {
            PsAgentState st;
            EXPECT(ps_crowd_agent_state(crowd, i, &st), PS_OK, "");
            CHECK(st.crossing_link == PS_NO_LINK && st.crossing_progress == 0.0,
                  "a grid's agent is on no off-mesh link");
            all = all && st.arrived;
        }
        if (all && arrived_frame < 0) arrived_frame = frame;
    }
    CHECK(xy[2 * N] == -12345.0 && xy[2 * N + 1] == -12345.0, "the canary was written");
    CHECK(nearest_pair >= 0.99 * 2 * RADIUS, "two agents %.4f apart", nearest_pair);
    CHECK(nearest_truck >= 0.99 * (RADIUS + TRUCK_RADIUS), "an agent %.4f from the disc",
          nearest_truck);
    CHECK(arrived_frame >= 0, "not every agent arrived");
    for (size_t i = 0; i < N; i++) {
        const double *goal = starts[i ^ 1];
        CHECK(xy[2 * i] == goal[0] && xy[2 * i + 1] == goal[1], "agent %zu at (%g, %g)", i,
              xy[2 * i], xy[2 * i + 1]);
    }

    /* The disc, read back: where this program says it is. */
    PsMovingObstacle moving[2];
    size_t count = 0;
    EXPECT(ps_crowd_moving_obstacles(crowd, moving, 2, &count), PS_OK, "");
    CHECK(count == 1 && moving[0].id == truck_id && moving[0].radius == TRUCK_RADIUS &&
              fabs(moving[0].center.x - truck[0]) < 1e-9 &&
              fabs(moving[0].center.y - truck[1]) < 1e-9 && moving[0].velocity.y == 1.2,
          "moving obstacle read back: %zu, (%g, %g)", count, moving[0].center.x,
          moving[0].center.y);
    EXPECT(ps_crowd_moving_obstacles(crowd, NULL, 0, &count), PS_BUFFER_TOO_SMALL,
           "holds 0 moving obstacles but 1 are needed");
    CHECK(count == 1, "needed %zu", count);
    EXPECT(ps_crowd_set_moving_obstacle_velocity(crowd, truck_id, pt(0.0, 0.0)), PS_OK, "");
    EXPECT(ps_crowd_remove_moving_obstacle(crowd, truck_id), PS_OK, "");
    EXPECT(ps_crowd_remove_moving_obstacle(crowd, truck_id), PS_INVALID_ARGUMENT,
           "ps_crowd_remove_moving_obstacle:");

    /* Removing agent 1: the last agent (5) takes index 1. */
    size_t moved = 0;
    EXPECT(ps_crowd_remove_agent(crowd, 1, &moved), PS_OK, "");
    CHECK(moved == N - 1, "moved %zu", moved);
    CHECK(agent_count(crowd) == N - 1, "count after removal");
    double after[2 * N];
    size_t len = 0;
    EXPECT(ps_crowd_positions(crowd, after, N, &len), PS_OK, "");
    CHECK(len == N - 1 && after[2] == xy[2 * (N - 1)] && after[3] == xy[2 * (N - 1) + 1],
          "agent 5 is now agent 1");
    EXPECT(ps_crowd_remove_agent(crowd, N - 2, &moved), PS_OK, "");
    CHECK(moved == PS_NO_AGENT, "removing the last moves none");

    /* A box on agent 0's way back: its path is repaired round it. */
    EXPECT(ps_crowd_set_target(crowd, 0, pt(1.5, 3.5)), PS_OK, "");
    EXPECT(ps_crowd_update(crowd, DT, NULL), PS_OK, "");
    uint64_t box = PS_NO_OBSTACLE;
    size_t blocked = 0;
    EXPECT(ps_crowd_add_box(crowd, pt(11.0, 2.5), pt(12.0, 4.5), &box, &blocked), PS_OK, "");
    CHECK(blocked == 1, "the box blocks %zu paths", blocked);
    PsCrowdFrame f;
    EXPECT(ps_crowd_update(crowd, DT, &f), PS_OK, "");
    CHECK(f.repaired == 1, "repaired %zu", f.repaired);
    EXPECT(ps_crowd_remove_obstacle(crowd, box), PS_OK, "");

    /* Bad input: each refused, with its message; nothing written past a buffer. */
    double small[4] = {7, 7, 7, 7};
    EXPECT(ps_crowd_positions(crowd, small, 1, &len), PS_BUFFER_TOO_SMALL,
           "the buffer holds 1 points but 4 are needed");
    CHECK(len == N - 2 && small[0] == 7 && small[3] == 7, "too small: %zu", len);
    EXPECT(ps_crowd_positions(crowd, NULL, 4, &len), PS_NULL_POINTER, "`out_xy` is NULL");
    EXPECT(ps_crowd_set_target(crowd, 0, pt(NAN, 1.0)), PS_INVALID_ARGUMENT,
           "ps_crowd_set_target: `target` (NaN, 1) is not finite");
    EXPECT(ps_crowd_set_target(crowd, 9, pt(1.5, 1.5)), PS_INVALID_ARGUMENT,
           "`agent` = 9 is out of range: the crowd has 4 agents");
    EXPECT(ps_crowd_update(crowd, NAN, NULL), PS_INVALID_ARGUMENT, "`dt`");
    EXPECT(ps_crowd_remove_obstacle(crowd, box), PS_INVALID_ARGUMENT, "ps_crowd_remove_obstacle:");
    EXPECT(ps_crowd_set_moving_obstacle_velocity(crowd, 99, pt(1, 0)), PS_INVALID_ARGUMENT,
           "ps_crowd_set_moving_obstacle_velocity:");
    size_t index = 0;
    EXPECT(ps_crowd_add_agent(crowd, pt(1.5, 1.5), pt(2.5, 2.5), -1.0, &index),
           PS_INVALID_ARGUMENT, "speed");
    CHECK(index == PS_NO_AGENT, "a failed add gives PS_NO_AGENT");
    uint64_t not_a_handle = 42;
    EXPECT(ps_crowd_update((PsCrowd *)(void *)&not_a_handle, DT, NULL), PS_WRONG_HANDLE,
           "`crowd` is not a pathsmooth handle");
    char text[8];
    EXPECT(ps_crowd_agent_error(crowd, 0, text, sizeof text, &len), PS_OK, "");
    CHECK(len == 0 && text[0] == 0, "no error on agent 0");

    EXPECT(ps_crowd_destroy(crowd), PS_OK, "");
    EXPECT(ps_crowd_destroy(NULL), PS_OK, "");
    printf("crowd: %d agents arrived by frame %d, nearest pair %.3f, nearest disc %.3f\n", N,
           arrived_frame, nearest_pair, nearest_truck);
}

/* A crowd on a navmesh of two unit squares side by side, scaled by 4: one agent across. */
static void navmesh_walk(void) {
    const double xy[] = {0, 0, 4, 0, 8, 0, 8, 4, 4, 4, 0, 4};
    const uint32_t indices[] = {0, 1, 4, 5, 1, 2, 3, 4};
    const uint32_t sizes[] = {4, 4};
    PsWorld *mesh = NULL;
    EXPECT(ps_world_navmesh_new(xy, 6, indices, sizes, 2, NULL, &mesh), PS_OK, "");
    PsCrowd *crowd = NULL;
    EXPECT(ps_crowd_new_preset(mesh, PS_PRESET_SMOOTH, 0.25, NULL, &crowd), PS_OK, "");
    if (!crowd) return;
    size_t a = 0;
    EXPECT(ps_crowd_add_agent(crowd, pt(1, 1), pt(7, 3), 2.0, &a), PS_OK, "");
    PsAgentState st;
    memset(&st, 0, sizeof st);
    for (int frame = 0; frame < 300 && !st.arrived; frame++) {
        EXPECT(ps_crowd_update(crowd, DT, NULL), PS_OK, "");
        EXPECT(ps_crowd_agent_state(crowd, a, &st), PS_OK, "");
    }
    CHECK(st.arrived && st.position.x == 7 && st.position.y == 3, "navmesh agent at (%g, %g)",
          st.position.x, st.position.y);
    /* Cells are a grid's: a navmesh crowd refuses them. */
    const int32_t cells[] = {1, 1};
    uint64_t id = 0;
    EXPECT(ps_crowd_add_cells(crowd, cells, 1, &id, NULL), PS_INVALID_ARGUMENT,
           "ps_crowd_add_cells:");
    EXPECT(ps_crowd_destroy(crowd), PS_OK, "");
    EXPECT(ps_world_destroy(mesh), PS_OK, "");
}

int main(void) {
    avoiding_walk();
    navmesh_walk();
    return finish_checks("crowd test");
}
