/*
 * memmove_sse2 — 16-byte SSE2 vectors (features UAL, SIMD128).
 *
 * Assumptions:
 *   - SSE2, which every x86_64 CPU has: no compiler flag needed.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - Up to 256 bytes every byte is loaded before any is stored (x86_vec.h), so
 *     overlap needs no test; above, the direction follows the overlap, and each
 *     64-byte block is loaded before it is stored.
 *   - rep movsb as memcpy_sse2, for forward moves whose source is apart from or
 *     at least 64 bytes ahead of the destination (src/policy.c): rep movsb
 *     is defined byte by byte forward, so any forward overlap is exact; below
 *     64 bytes apart it leaves its fast mode (Intel SDM vol. 3, "Out-of-Order
 *     Stores For String Operations"; glibc 2.36 keeps the same 64-byte cut).
 */
#include <stdint.h>

#define VEC_BITS 128
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_movsb_start[0] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, const void *src, size_t n)
{
    return vmove_large(dst, src, n, &ERMS_MIN, &altmem__rep_movsb_direct_below[0]); /* x86_vec.h: the direction, streaming, rep movsb */
}

ENTRY_ALIGNED(altmem_memmove_sse2, 2048);
void *altmem_memmove_sse2(void *dst, const void *src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[0], 1); /* x86_vec_set.h: the classes, the loops */
}
