/*
 * static_prog [BOUND_BY]: a statically linked program (glibc or musl) whose
 * memcpy, memmove and memset are altmem's, linked from libaltmem-libc.a as
 * docs/dropin.md says (tests/dropin/static.sh builds it).
 *
 * It proves the routines are altmem's, not merely that altmem is linked in:
 * the addresses of memcpy/memmove/memset are those of altmem_memcpy/...
 * (the same stubs under two names), and altmem_binding() says how they were
 * bound (BOUND_BY, when given, must match: the constructor ran in a static
 * program and patched the stubs).  Then the routines, and C library functions
 * that copy internally, are checked for results.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int bad = 0;
    /* Volatile: a compiler must not decide the comparison from the names. */
    void *volatile p[6] = {(void *)memcpy, (void *)altmem_memcpy, (void *)memmove,
                           (void *)altmem_memmove, (void *)memset, (void *)altmem_memset};
    static const char *const names[3] = {"memcpy", "memmove", "memset"};
    for (int r = 0; r < 3; r++) {
        int same = p[2 * r] == p[2 * r + 1];
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)r, &b);
        printf("%-8s %s altmem_%s; bound to %s by %s%s%s\n", names[r], same ? "is" : "is NOT", names[r], b.variant,
               b.bound_by, b.bound_note[0] ? "; " : "", b.bound_note);
        if (!same)
            bad = 1;
        if (argc > 1 && strcmp(b.bound_by, argv[1])) {
            printf("FAIL: %s bound by %s, expected %s\n", names[r], b.bound_by, argv[1]);
            bad = 1;
        }
    }
    bad |= check_calls();

    /* The C library's own copying (stdio buffers, qsort's element moves,
       strdup), which in a static link calls whichever memcpy was linked. */
    char line[256];
    int v[1000];
    for (int i = 0; i < 1000; i++)
        v[i] = (i * 7919) % 1000;
    qsort(v, 1000, sizeof v[0], cmp_int);
    for (int i = 0; i < 1000; i++)
        if (v[i] != i)
            bad = 1;
    snprintf(line, sizeof line, "%s-%d-%.3f-%s", "static", 42, 2.5, names[1]);
    char *d = strdup(line);
    if (!d || strcmp(d, "static-42-2.500-memmove")) {
        printf("FAIL: libc string functions gave '%s'\n", d ? d : "(null)");
        bad = 1;
    }
    free(d);
    printf("static program: %s\n", bad ? "FAILED" : "passed");
    return bad;
}
