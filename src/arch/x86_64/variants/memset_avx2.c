/*
 * memset_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 256: overlapping stores from both ends; above, inline, a
 *     32-aligned 128-byte loop between a first block of one unaligned and three
 *     aligned vectors and a last block of three aligned and one unaligned
 *     (x86_vec_set.h, vset_loop_inline, in asm: VSET_LOOP_ASM, where GCC's
 *     code ran through three 64-byte lines and executed 29 bytes of padding:
 *     384 B aligned 0.87-0.88 -> 1.00x glibc's avx2 memset from a caller that
 *     drops the result).  2 and 3 bytes are stored from the
 *     byte itself.  Layout as glibc's avx2
 *     memset (-fno-reorder-blocks, x86_vec.h vset_entry: no class takes more
 *     taken jumps, scripts/small-cost.sh --width avx2).
 *   - rep stosb from the policy's 32-byte start up to memset's non-temporal
 *     threshold (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES
 *     rep_stosb_threshold; never on a CPU without ERMS).
 */
#define VEC_BITS 256
#define VSET_LOOP_ASM 1 /* the loop's path written out (x86_vec_set.h) */
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[1] /* below: the vector loop wins (src/policy.c) */

/* From the policy's limit up (rep stosb, streaming): out of line, so that
   the classes and the inline loop need no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    return vset_large(dst, c, n, &ERMS_MIN); /* x86_vec.h: the loop, rep stosb, streaming */
}

ENTRY_ALIGNED(altmem_memset_avx2, 1024);
void *altmem_memset_avx2(void *dst, int c, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vset_entry(dst, c, n, large, &altmem__memset_loop_below[1]);    /* the classes: x86_vec.h, vset_entry */
}
