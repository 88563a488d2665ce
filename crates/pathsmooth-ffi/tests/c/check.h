/* The checking both C tests share: CHECK counts a check and reports a failed one (file,
 * line, message, the library's last error) without stopping, so one run lists every
 * failure; EXPECT checks a status and the words of its message; finish_checks prints the
 * tally and gives the exit status. Included by test_ffi.c and test_crowd.c. */
#ifndef PATHSMOOTH_TEST_CHECK_H
#define PATHSMOOTH_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "pathsmooth.h"

static int checks = 0, failures = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, " (last error: %s)\n", last_error());          \
        }                                                                  \
    } while (0)

static const char *last_error(void) {
    static char buf[1024];
    ps_last_error(buf, sizeof buf);
    return buf;
}

/* The status is `want` and the last error contains `words`. */
#define EXPECT(status, want, words)                                                     \
    do {                                                                                \
        PsStatus s_ = (status);                                                         \
        CHECK(s_ == (want) && strstr(last_error(), (words)) != NULL,                    \
              "%s: got %s, want %s with \"%s\"", #status, ps_status_name(s_),           \
              ps_status_name(want), (words));                                           \
    } while (0)

/* Prints "`what`: N checks, M failed" and returns the exit status: 0 when none failed. */
static int finish_checks(const char *what) {
    fprintf(stderr, "%s: %d checks, %d failed\n", what, checks, failures);
    return failures == 0 ? 0 : 1;
}

#endif
