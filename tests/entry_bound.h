/*
 * For the tests of libaltmem.so's entries (test_entry_shared.c,
 * test_entry_early.c): whether an address the loader resolved for a public
 * routine is the variant that routine is bound to.
 */
#ifndef ALTMEM_TEST_ENTRY_BOUND_H
#define ALTMEM_TEST_ENTRY_BOUND_H

#include <altmem.h>
#include <string.h>

static inline int entry_is_bound_variant(enum altmem_routine r, const void *entry)
{
    struct altmem_binding_info b;
    altmem_binding(r, &b);
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        altmem_variant(i, &v);
        if (v.routine == r && !strcmp(v.name, b.variant))
            return (const void *)v.fn.memcpy == entry;
    }
    return 0;
}

#endif
