/*
 * memset_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte stores are single, fast instructions.
 *   - Sizes up to 64: two overlapping stores per class; above, 16 bytes unaligned
 *     at the start, a 64-byte loop from a 16-aligned dst (so that compilers that
 *     pair the words into 16-byte stores never split a cache line), and 64 bytes
 *     unaligned at the end.  The classes up to 32 bytes and the loop's block are
 *     clear_user_ual's too (ual_classes.h); above 32 the tail is stored first,
 *     a plain-only order (clear_user_ual's must ascend).
 */
#include <stdint.h>

#include "registry.h"
#include "ual_classes.h"

void *altmem_memset_ual(void *dst, int c, size_t n)
{
    ual_memset((uintptr_t)dst, (unsigned char)c, n);
    return dst;
}
