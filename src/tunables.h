/*
 * ALTMEM_TUNABLES parsed (src/tunables.c), for the decision (src/decide.c) and
 * the profile (src/profile.c), whose lines are the same settings.
 */
#ifndef ALTMEM_TUNABLES_H
#define ALTMEM_TUNABLES_H

#include "altmem.h"

#include <stddef.h>
#include <stdint.h>

#define ALTMEM_TUNABLES_ENV "ALTMEM_TUNABLES"

struct altmem__tunables {
    uint64_t mask;                        /* hwcaps=-X                          */
    uint64_t force;                       /* hwcaps=+X                          */
    int pin[ALTMEM_ROUTINE_COUNT];        /* variant index, or -1               */
    const char *pin_old[ALTMEM_ROUTINE_COUNT]; /* the old name pinned ("avx2_erms"), or NULL */
    int verbose;                          /* print bindings at init             */
    int debug;                            /* print every patched site           */
    enum altmem__bind {                   /* bind=                              */
        ALTMEM__BIND_IFUNC,               /* the default: IFUNC entries where the
                                             library has them, the callers' PLT
                                             slots in the preload, else copy    */
        ALTMEM__BIND_COPY,                /* the stubs, holding a copy of the
                                             variant where they own a room      */
        ALTMEM__BIND_PATCH,               /* the stubs' patched branch only     */
        ALTMEM__BIND_POINTER              /* leave sites alone                  */
    } bind;
    int nt_set;                           /* nt_threshold=BYTES was given       */
    size_t nt_threshold;                  /* ... and its value                  */
    int memset_nt_set;                    /* memset_nt_threshold=BYTES          */
    size_t memset_nt_threshold;
    int movsb_set;                        /* rep_movsb_threshold=BYTES          */
    size_t movsb;
    int stosb_set;                        /* rep_stosb_threshold=BYTES          */
    size_t stosb;
    int short_set;                        /* rep_movsb_short_distance=N (0..4095) */
    size_t short_distance;
};

typedef void altmem__warn_fn(const char *line, size_t len, void *ctx);

/* Sets nothing: no feature masked or forced, no routine pinned, no threshold
   given (field by field: no memset call, the core has no C library). */
void altmem__tunables_reset(struct altmem__tunables *t);

/* Parses an ALTMEM_TUNABLES value into *out, over what it holds (reset it
   first).  Every malformed or unknown part produces one warning line (no
   trailing newline) through warn and is skipped; the rest is applied.  Returns
   the number of warnings. */
int altmem__tunables_parse(const char *value, struct altmem__tunables *out,
                           altmem__warn_fn *warn, void *ctx);

#endif
