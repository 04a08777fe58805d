/*
 * memcpy_sse2 — 16-byte SSE2 vectors (features UAL, SIMD128).
 *
 * Assumptions:
 *   - SSE2, which every x86_64 CPU has: no compiler flag needed.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     256 (8 vectors from each end: all 16 xmm registers) before storing any,
 *     and the loops store 16-aligned.
 *   - Layout (built -fno-reorder-blocks, x86_vec.h vcopy_entry): no size class
 *     takes more taken jumps than glibc 2.36's sse2 variant (scripts/small-cost.sh
 *     --width sse2); the 8-vector class, which glibc does not have, keeps
 *     129-256 bytes out of the loop, where glibc's runs one round.
 *   - rep movsb from the policy's 16-byte start up to the non-temporal
 *     threshold,
 *     not where (dst - src) mod 4096 is in 1..the policy's short distance
 *     (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES; never on a CPU
 *     without ERMS).
 */
#define VEC_BITS 128
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_movsb_start[0] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    return vcopy_large(dst, src, n, &ERMS_MIN, &altmem__rep_movsb_direct_below[0]); /* x86_vec.h: streaming, rep movsb, the loop */
}

ENTRY_ALIGNED(altmem_memcpy_sse2, 2048);
void *altmem_memcpy_sse2(void *__restrict dst, const void *__restrict src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[0], 0); /* x86_vec_set.h: the classes, the loops */
}
