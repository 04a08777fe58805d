/*
 * memcpy_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     256 (512 with dst 32-aligned) before storing any, and the loops store 32-aligned.
 *   - Layout (built -fno-reorder-blocks, x86_vec.h vcopy_entry): no size class
 *     takes more taken jumps than glibc 2.36's avx2 variant (scripts/small-cost.sh
 *     --width avx2).
 *   - rep movsb from the policy's 32-byte start (its own where src and dst
 *     differ mod 32) up to the non-temporal
 *     threshold,
 *     not where (dst - src) mod 4096 is in 1..the policy's short distance
 *     (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES; never on a CPU
 *     without ERMS).
 */
#define VEC_BITS 256
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    return vcopy_large(dst, src, n, movsb_start_32(dst, src), &altmem__rep_movsb_direct_below[1]); /* x86_vec.h: streaming, rep movsb, the loop */
}

/* Its name: the evex build (memcpy_evex.c) gives its own. */
#ifndef MEMCPY_AVX2_ENTRY
#define MEMCPY_AVX2_ENTRY altmem_memcpy_avx2
#endif

ENTRY_ALIGNED(MEMCPY_AVX2_ENTRY, 4096);
void *MEMCPY_AVX2_ENTRY(void *__restrict dst, const void *__restrict src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[1], 0); /* x86_vec_set.h: the classes, the loops */
}
