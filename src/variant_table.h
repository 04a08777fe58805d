/*
 * The table of variants (src/registry.c, generated from src/registry.def) and
 * lookup by name, for the decision, ALTMEM_TUNABLES, the profile and the
 * introspection of src/select.c.  The variants' own prototypes are in
 * registry.h.
 */
#ifndef ALTMEM_VARIANT_TABLE_H
#define ALTMEM_VARIANT_TABLE_H

#include "altmem.h"

#include <stddef.h>
#include <stdint.h>

struct altmem__variant {
    enum altmem_routine routine;
    const char *name;
    const char *summary;
    uint64_t requires;
    union altmem_routine_fn fn;   /* include/altmem.h */
    int vec512;                   /* 512-bit registers (flag set avx512): what a
                                     rule clearing allow512 keeps out (src/policy.c) */
    int halves64;                 /* the _halves build of a 64-byte variant: bound only
                                     where the policy's halves64 is set, which keeps
                                     the routine's other 512-bit variants out */
    int vzeroupper;               /* returns through vzeroupper (flag set avx2),
                                     which aborts an RTM transaction: what the
                                     policy's avx2_copies_out keeps out */
};

/* All variants; within a routine, in preference order (best first). */
extern const struct altmem__variant altmem__variants[];
extern const size_t altmem__variant_total;

/* Index of (routine, name) in altmem__variants, or -1. name need not be
   NUL-terminated: len bytes are compared. */
int altmem__variant_find(enum altmem_routine r, const char *name, size_t len);
/* The variant an old name now means (the merged "avx2_erms" -> "avx2"), or
   NULL; *old (if not NULL) gets the old name's static spelling. */
const char *altmem__variant_alias(const char *name, size_t len, const char **old);

#endif
