/*
 * For tests/test_entry_early.c: a library that calls altmem_memcpy without
 * being linked with libaltmem.so (no DT_NEEDED on it), so the dynamic loader
 * relocates it, and asks libaltmem.so's IFUNC resolver, before it has
 * relocated libaltmem.so itself.
 */
#include <altmem.h>

void *entry_early_copy(void *dst, const void *src, size_t n)
{
    return altmem_memcpy(dst, src, n);
}
