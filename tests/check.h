/*
 * CHECK(cond, fmt, ...): the table-driven unit tests' one assertion.  Counts
 * every check, prints each failure with its place and a message, and keeps
 * going, so one run shows every rule that broke; main() ends by printing
 * a line with the totals (`checks`, `failures`).
 */
#ifndef ALTMEM_TEST_CHECK_H
#define ALTMEM_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        checks++;                                         \
        if (!(cond)) {                                    \
            failures++;                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);   \
            printf(__VA_ARGS__);                          \
            printf("\n");                                 \
        }                                                 \
    } while (0)

#endif
