/*
 * memcpy_generic — for CPUs without hardware unaligned access.
 *
 * Assumptions:
 *   - Any ISA, either byte order; no CPU feature required.
 *   - Never performs a multi-byte access at an address that is not a multiple
 *     of its size (proved on x86_64 with EFLAGS.AC in tests/test_strict_align.c).
 *   - Word-at-a-time with shift-and-merge when src and dst are aligned
 *     differently; see word_copy.h for the size classes.
 */
#include "registry.h"
#include "word_copy.h"

void *altmem_memcpy_generic(void *__restrict dst, const void *__restrict src, size_t n)
{
    word_copy_fwd(dst, src, n);
    return dst;
}
