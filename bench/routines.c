/* What the benchmarks ask of a routine, from the registry (routines.h). */
#include "routines.h"

#include <altmem.h>
#include <string.h>

#include "registry.h"

/* The registry's words for a routine's access and reads fields, as flags. */
#define ROUTINE_FAULT_plain 0
#define ROUTINE_FAULT_fault 1
#define ROUTINE_READS_src 1
#define ROUTINE_READS_nosrc 0

/* Each ROUTINE entry: its libc_name ("none": the C library has no such
   routine), whether it is fault-tolerant, whether it reads a source. */
static const struct {
    const char *libc_name;
    int fault, reads_src;
} routines[ALTMEM_ROUTINE_COUNT] = {
#define ROUTINE(routine, libc_name, access, reads)                                                             \
    [ALTMEM__ID_##routine] = {#libc_name, ROUTINE_FAULT_##access, ROUTINE_READS_##reads},
#include "registry.def"
#undef ROUTINE
};

static int known(int r)
{
    return r >= 0 && (size_t)r < sizeof routines / sizeof routines[0] && routines[r].libc_name;
}

int bench_routine_in_libc(int r)
{
    return known(r) && strcmp(routines[r].libc_name, "none") != 0;
}

int bench_routine_uaccess(int r)
{
    return known(r) && routines[r].fault;
}

int bench_routine_reads_src(int r)
{
    return known(r) && routines[r].reads_src;
}
