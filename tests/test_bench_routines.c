/*
 * What the benchmarks read of each routine in the registry (bench/routines.c,
 * from src/registry.def's ROUTINE fields), against what each routine is:
 * C-library counterpart (the function itself), fault-tolerant, reads a source.
 */
#include <altmem.h>
#include <stdio.h>
#include <string.h>

#include "routines.h"

int main(void)
{
    static const struct {
        const char *name;
        int in_libc, uaccess, reads_src;
        void *libc;
    } want[] = {
        {"memcpy", 1, 0, 1, (void *)memcpy},  {"memmove", 1, 0, 1, (void *)memmove}, {"memset", 1, 0, 0, (void *)memset},
        {"copy_user", 0, 1, 1, NULL},          {"clear_user", 0, 1, 0, NULL},
    };
    int fail = 0, seen = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            if (!strcmp(altmem_routine_name((enum altmem_routine)r), want[k].name)) {
                seen++;
                int got[3] = {bench_routine_in_libc(r), bench_routine_uaccess(r), bench_routine_reads_src(r)};
                printf("%-10s in libc %d, fault-tolerant %d, reads src %d\n", want[k].name, got[0], got[1], got[2]);
                if (got[0] != want[k].in_libc || got[1] != want[k].uaccess || got[2] != want[k].reads_src) {
                    printf("FAIL: %s: expected %d %d %d\n", want[k].name, want[k].in_libc, want[k].uaccess,
                           want[k].reads_src);
                    fail = 1;
                }
                if (bench_fn_address(bench_routine_libc(r)) != want[k].libc) {
                    printf("FAIL: %s: the C library's function is %p, not %p\n", want[k].name,
                           bench_fn_address(bench_routine_libc(r)), want[k].libc);
                    fail = 1;
                }
            }
    /* Out of range: nothing. */
    fail |= bench_routine_in_libc(-1) | bench_routine_uaccess(ALTMEM_ROUTINE_COUNT) |
            bench_routine_reads_src(ALTMEM_ROUTINE_COUNT) | (bench_fn_address(bench_routine_libc(-1)) != NULL);
    if (seen != ALTMEM_ROUTINE_COUNT) {
        printf("FAIL: %d of %d routines named here\n", seen, ALTMEM_ROUTINE_COUNT);
        fail = 1;
    }
    return fail;
}
