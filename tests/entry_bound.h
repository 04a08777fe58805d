/*
 * For the tests of libaltmem.so's entries (test_entry_shared.c,
 * test_entry_early.c): a routine's variant by name, and whether an address the
 * loader resolved for a public routine is the variant that routine is bound to.
 */
#ifndef ALTMEM_TEST_ENTRY_BOUND_H
#define ALTMEM_TEST_ENTRY_BOUND_H

#include <altmem.h>
#include <string.h>

/* Routine r's variant called name, into *out: 1, or 0 if there is none. */
static inline int entry_variant_named(enum altmem_routine r, const char *name, struct altmem_variant_info *out)
{
    for (size_t i = 0; i < altmem_variant_count(); i++)
        if (altmem_variant(i, out) == 0 && out->routine == r && !strcmp(out->name, name))
            return 1;
    return 0;
}

static inline int entry_is_bound_variant(enum altmem_routine r, const void *entry)
{
    struct altmem_binding_info b;
    struct altmem_variant_info v;
    altmem_binding(r, &b);
    return entry_variant_named(r, b.variant, &v) && (const void *)v.fn.memcpy == entry;
}

#endif
