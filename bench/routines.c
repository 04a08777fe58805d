/* What the benchmarks ask of a routine, from the registry (routines.h). */
#include "routines.h"

#include <altmem.h>
#include <string.h>

#include "registry.h"

#define ROUTINES_STR_(x) #x
#define ROUTINES_STR(x) ROUTINES_STR_(x)

/* Each ROUTINE entry: its libc_name ("none": the C library has no such
   routine), its return type and its parameter list, as text. */
static const struct {
    const char *libc_name;
    const char *ret;
    const char *params;
} routines[ALTMEM_ROUTINE_COUNT] = {
#define ROUTINE(routine, libc_name)                                                                                  \
    [ALTMEM__ID_##routine] = {#libc_name, ROUTINES_STR(ALTMEM__RET_##routine), ROUTINES_STR(ALTMEM__PARAMS_##routine)},
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
    return known(r) && !strcmp(routines[r].ret, "size_t");
}

static int ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int bench_routine_reads_src(int r)
{
    if (!known(r))
        return 0;
    /* a parameter named src: the word, not part of a longer name */
    const char *params = routines[r].params;
    for (const char *p = strstr(params, "src"); p; p = strstr(p + 1, "src"))
        if ((p == params || !ident_char(p[-1])) && !ident_char(p[3]))
            return 1;
    return 0;
}
