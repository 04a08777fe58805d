/*
 * memset_generic — for CPUs without hardware unaligned access.
 *
 * Assumptions:
 *   - Any ISA; no CPU feature required.
 *   - Never performs a multi-byte store at an address that is not a multiple of
 *     its size; must be compiled without auto-vectorisation.
 */
#include <stdint.h>

#include "registry.h"
#include "word_copy.h"

void *altmem_memset_generic(void *dst, int c, size_t n)
{
    word_set(OPS_PLAIN, (uintptr_t)dst, (unsigned char)c, n); /* word_copy.h, clear_user_generic's too */
    return dst;
}
