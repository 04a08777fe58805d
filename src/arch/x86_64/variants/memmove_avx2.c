/*
 * memmove_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - Up to 256 bytes (512 with dst 32-aligned) every byte is loaded before any
 *     is stored (x86_vec.h), so overlap needs no test; above, the direction
 *     follows the overlap, and each
 *     128-byte block is loaded before it is stored.
 *   - rep movsb as memcpy_avx2, for forward moves whose source is apart from or
 *     at least 64 bytes ahead of the destination (src/policy.c): rep movsb
 *     is defined byte by byte forward, so any forward overlap is exact; below
 *     64 bytes apart it leaves its fast mode (Intel SDM vol. 3, "Out-of-Order
 *     Stores For String Operations"; glibc 2.36 keeps the same 64-byte cut).
 */
#include <stdint.h>

#define VEC_BITS 256
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, const void *src, size_t n)
{
    return vmove_large(dst, src, n, movsb_start_32(dst, src), &altmem__rep_movsb_direct_below[1]); /* x86_vec.h: the direction, streaming, rep movsb */
}

/* Its name: the evex build (memmove_evex.c) gives its own. */
#ifndef MEMMOVE_AVX2_ENTRY
#define MEMMOVE_AVX2_ENTRY altmem_memmove_avx2
#endif

ENTRY_ALIGNED(MEMMOVE_AVX2_ENTRY, 4096);
void *MEMMOVE_AVX2_ENTRY(void *dst, const void *src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[1], 1); /* x86_vec_set.h: the classes, the loops */
}
