/* What the benchmarks ask of a routine, from the registry (routines.h). */
#include "routines.h"

#include <string.h> /* the C library's functions the registry names */

#include "benchlib.h"
#include "registry.h"

/* The registry's words for a routine's access and reads fields, as flags. */
#define ROUTINE_FAULT_plain 0
#define ROUTINE_FAULT_fault 1
#define ROUTINE_READS_src 1
#define ROUTINE_READS_nosrc 0

/* A ROUTINE entry's libc_name "none": the C library has no such routine. */
#define none 0

/* Each ROUTINE entry: the C library's function of that name, altmem's public
   entry, whether the routine is fault-tolerant, whether it reads a source. */
static const struct {
    union altmem_routine_fn libc, entry;
    int fault, reads_src;
} routines[ALTMEM_ROUTINE_COUNT] = {
#define ROUTINE(routine, libc_name, access, reads)                                                             \
    [ALTMEM__ID_##routine] = {{.routine = libc_name}, {.routine = altmem_##routine}, ROUTINE_FAULT_##access,      \
                              ROUTINE_READS_##reads},
#include "registry.def"
#undef ROUTINE
};

#undef none

static const union altmem_routine_fn no_function; /* every member null */

static int known(int r)
{
    return r >= 0 && (size_t)r < sizeof routines / sizeof routines[0];
}

union altmem_routine_fn bench_routine_libc(int r)
{
    volatile union altmem_routine_fn unseen = known(r) ? routines[r].libc : no_function;
    return unseen;
}

union altmem_routine_fn bench_routine_entry(int r)
{
    return known(r) ? routines[r].entry : no_function;
}

int bench_routine_in_libc(int r)
{
    return bench_fn_address(bench_routine_libc(r)) != NULL;
}

int bench_routine_uaccess(int r)
{
    return known(r) && routines[r].fault;
}

int bench_routine_reads_src(int r)
{
    return known(r) && routines[r].reads_src;
}

typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);

double bench_routine_best_ns(int r, void *fn, unsigned char *d, const unsigned char *s, size_t n, int samples,
                             int calls)
{
    const int sets = !bench_routine_reads_src(r);
    double best = 1e300;
    for (int k = 0; k < samples; k++) {
        double t0 = bench_now_ns();
        for (int i = 0; i < calls; i++) {
            if (sets)
                ((set_fn *volatile)fn)(d, 0xa5, n);
            else
                ((copy_fn *volatile)fn)(d, s, n);
        }
        double t = (bench_now_ns() - t0) / calls;
        best = t < best ? t : best;
    }
    return best;
}
